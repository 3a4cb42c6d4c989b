import { join } from "node:path";
import { ROOT } from "../app-info.ts";
import { expect, test } from "../fixtures.ts";
import { CollectionsPage } from "../pages/collections-page.ts";
import { McpPage } from "../pages/mcp-page.ts";
import { DiffPage, RecordPanelPage } from "../pages/record-diff-page.ts";
import { TrafficPage } from "../pages/traffic-page.ts";

const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");

interface Tool {
  name: string;
  inputSchema: { properties?: Record<string, { type?: unknown }> };
}

test.describe("Traffic recorded as a collection, and the Diff view", () => {
  test("records an echo call from Traffic, runs it in Collections, and diffs two tool lists by pointer", async ({ page, app }) => {
    const name = `recorded-echo-${Date.now()}`;
    const mcp = new McpPage(page);
    await mcp.open(app.url);
    await mcp.connectStdio(process.execPath, [EVERYTHING, "stdio"], "2025-06-18");
    await expect(mcp.state).toHaveText("connected", { timeout: 20_000 });
    await mcp.call("echo", '{"message":"recorded"}');
    await expect(mcp.outcome).toHaveText("Success");

    await page.getByRole("tab", { name: "Traffic" }).click();
    const traffic = new TrafficPage(page);
    // The tool list server-everything answered, as Traffic decoded it: the "before" of the diff.
    await traffic.method.fill("tools/list");
    await traffic.row(/received .*↩ tools\/list /).first().click();
    await expect(traffic.decoded).toContainText('"tools": [');
    const listed = (await traffic.decoded.locator("pre").textContent()) ?? "";
    const response = JSON.parse(listed) as { result: { tools: Tool[] } };
    expect(response.result.tools.find((t) => t.name === "echo")?.inputSchema.properties?.["message"]?.type).toBe("string");

    await traffic.method.fill("tools/call");
    // The tools/list filter showed two frames too: the count alone does not say the new filter applied.
    await expect(traffic.row(/tools\/list/)).toHaveCount(0);
    await expect(traffic.counts).toContainText("showing 2 of");
    const record = new RecordPanelPage(page);
    await record.start.click();
    await expect(record.summary).toHaveText("From the 2 frames shown: 1 step.");
    await expect(record.name).toHaveValue(/^recorded-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d/);
    await record.name.fill(name);
    await record.save.click();
    await expect(record.notice).toHaveText(`saved "${name}" (1 step)`);
    await record.openInCollections.click();

    const col = new CollectionsPage(page);
    await expect(page).toHaveURL(/#\/collections$/);
    await col.editor.waitReady();
    await expect(col.list.getByRole("button", { name: new RegExp(`^${name}\\b`) })).toBeVisible();
    await expect(col.valid).toContainText("Valid collection");
    await col.run.click();
    await expect(col.progressText).toHaveText("Finished: 1 of 1 steps", { timeout: 30_000 });
    await expect(col.rows).toHaveCount(1);
    await expect(col.rows.first()).toContainText(/passed\s*tools\/call echo\s*mcp/);
    await expect(col.totals).toContainText("1 passed · 0 failed");

    // The run's latency, collapsed until asked for.
    const latency = page.getByRole("button", { name: "Latency", exact: true });
    await expect(latency).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByTestId("run-latency")).toHaveCount(0);
    await latency.click();
    await expect(page.getByTestId("run-latency").getByTestId("latency-chart")).toHaveCount(1);
    await expect(page.getByTestId("run-latency").getByTestId("latency-chart")).toContainText("mcp tools/call");

    // Diff: the listed tools against a copy whose echo takes a number, reached from the keyboard.
    const diff = new DiffPage(page);
    await page.getByRole("tab", { name: "Collection", exact: true }).focus();
    await page.keyboard.press("ArrowRight");
    await expect(diff.tab).toHaveAttribute("aria-selected", "true");
    const changed = structuredClone(response.result.tools);
    const echo = changed.find((t) => t.name === "echo")!;
    echo.inputSchema.properties!["message"]!.type = "number";
    await diff.before.fill(listed);
    await expect(diff.beforeStatus).toHaveText("Detected a tool list");
    await diff.after.fill(JSON.stringify(changed, null, 2));
    await expect(diff.afterStatus).toHaveText("Detected a tool list");
    await expect(diff.headline).toContainText("Tool lists: 1 tool changed");
    const changes = diff.inputSchemaChanges("echo").getByRole("listitem");
    await expect(changes).toHaveCount(1);
    await expect(changes.first()).toHaveAttribute("data-pointer", "/properties/message/type");
    await expect(changes.first()).toContainText("type of /properties/message changed: string → number");

    // Equal lists say so; two kinds are refused by name.
    await diff.after.fill(listed);
    await expect(diff.none).toHaveText("No differences.");
    await diff.after.fill('{"format": "patchbay.run", "steps": []}');
    await expect(diff.error).toHaveText("before is a tool list and after is a run report: compare two inputs of one kind");
  });
});
