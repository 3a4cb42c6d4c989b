import { join } from "node:path";
import { BackendClient } from "../../../src/core/backend/backend-client.ts";
import { ROOT } from "../app-info.ts";
import { expect, test } from "../fixtures.ts";
import { EditorPage } from "../pages/editor-page.ts";
import { FiskPage } from "../pages/fisk-page.ts";
import { McpPage } from "../pages/mcp-page.ts";
import { ServePage } from "../pages/serve-page.ts";
import { TrafficPage } from "../pages/traffic-page.ts";

const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const CLOCK = /^\d\d:\d\d:\d\d\.\d{3}$/;

test.describe("Traffic, MCP and NATS views", () => {
  test.use({ viewport: { width: 1920, height: 1080 } });

  test.afterEach(async ({ app }) => {
    await new BackendClient({ fetch, token: app.token, baseUrl: app.origin }).call("POST", "/serve/nats/stop", {}).catch(() => undefined);
  });

  test("MCP tools: the count follows the filter, the raw definition shows, the list takes its room; Traffic keeps an answer with its request", async ({ page, app }) => {
    const mcp = new McpPage(page);
    const traffic = new TrafficPage(page);
    await mcp.open(app.url);
    await mcp.connectStdio(process.execPath, [EVERYTHING, "stdio"], "2025-06-18");
    await expect(mcp.state).toHaveText("connected", { timeout: 20_000 });
    await expect(mcp.tools.getByRole("option").first()).toBeVisible();
    const total = (await mcp.toolCount.textContent()) ?? "";
    expect(Number(total)).toBeGreaterThan(1);

    await mcp.toolFilter.fill("echo");
    await expect(mcp.toolCount).toHaveText(`1 of ${total}`);
    const width = (await mcp.tools.boundingBox())?.width ?? 0;
    expect(width, "the tool list uses the room a 1920 px window gives it").toBeGreaterThan(420);

    await mcp.selectTool("echo");
    await page.getByText(/^Raw definition of echo/).click();
    const definition = page.getByTestId("mcp-tool-definition");
    await expect(definition).toContainText('"inputSchema"');
    await expect(definition).toContainText('"message"');
    // A tool with an output schema and annotations shows them too, as tools/list gave them.
    await mcp.selectTool("get-structured-content");
    const summary = page.locator("summary", { hasText: /^Raw definition of / });
    await expect(summary).toHaveText("Raw definition of get-structured-content (inputSchema, outputSchema, annotations)");
    if (!(await summary.evaluate((el) => (el.parentElement as HTMLDetailsElement).open))) await summary.click();
    await expect(definition).toContainText('"outputSchema"');
    await expect(definition).toContainText('"temperature"');
    await expect(definition).toContainText('"readOnlyHint"');

    await page.getByRole("tab", { name: "Traffic" }).click();
    await traffic.method.fill("tools/list");
    // Each tools/list request is kept with its answer, which carries no method of its own.
    const rows = traffic.rows;
    const answers = rows.filter({ hasText: "↩ tools/list" });
    await expect(answers.first()).toBeVisible();
    await expect.poll(async () => (await rows.count()) - 2 * (await answers.count()), { message: "as many answers as requests" }).toBe(0);
    await answers.first().click();
    await expect(page.getByTestId("traffic-answer-to")).toHaveText("answer to tools/list");
    await expect(page.getByTestId("traffic-time")).toHaveText(/^\d\d:\d\d:\d\d\.\d{3} · \+[\d,]+\.\d ms$/);
    await expect(answers.first().locator("span").first()).toHaveText(CLOCK);
    // Every column but Target (which takes the rest) is as wide as what it holds: nothing is cut.
    await traffic.method.fill("");
    await expect.poll(() => traffic.rows.count()).toBeGreaterThan(4);
    const cut = await traffic.rows.evaluateAll((rows) =>
      rows.flatMap((row) => {
        const cells = [...(row.querySelector(".cols")?.children ?? [])] as HTMLElement[];
        return cells.filter((cell, i) => i !== 4 && cell.scrollWidth > cell.clientWidth + 1).map((cell) => cell.textContent ?? "");
      }),
    );
    expect(cut, "cells cut short").toEqual([]);
  });

  test("the mcpServers Import button takes a click", async ({ page, app }) => {
    const mcp = new McpPage(page);
    await mcp.open(app.url);
    const region = page.getByRole("region", { name: "Saved servers" });
    await region.getByText("Import or export mcpServers JSON").click();
    await region.getByLabel("Paste or drop a Claude Desktop, Cursor or VS Code config").fill('{"mcpServers": {"e2e-click": {"command": "node", "args": ["x.js"]}}}');
    const button = region.getByRole("button", { name: "Import", exact: true });
    // The button is as wide as its word, and nothing lies over the word (the file input did, its
    // column squeezing the button to a sliver with "Import" spilling out under the input).
    const layout = await button.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      const text = range.getBoundingClientRect();
      const covered = [0.1, 0.5, 0.9]
        .map((fx) => document.elementFromPoint(text.left + text.width * fx, text.top + text.height / 2))
        .filter((hit) => hit === null || !el.contains(hit)).length;
      return { overflow: el.scrollWidth - el.clientWidth, covered };
    });
    expect(layout).toEqual({ overflow: 0, covered: 0 });
    // A plain click: Playwright refuses it when another element lies over the button.
    await button.click({ timeout: 5_000 });
    await expect(region.getByRole("status")).toContainText(/import/i);
  });

  test("editors grow with the window instead of keeping a fixed height", async ({ page, app }) => {
    await page.goto(`${app.url}#/nats`);
    const payload = new EditorPage(page, "Payload");
    await payload.waitReady();
    // The payload editor is 200 px at 800 px of window height.
    expect((await payload.monaco.boundingBox())?.height ?? 0).toBeGreaterThan(250);
    await page.getByRole("tab", { name: "Serve" }).click();
    const kit = new EditorPage(page, "Toolkit JSON");
    await kit.waitReady();
    expect((await kit.monaco.boundingBox())?.height ?? 0).toBeGreaterThan(440);
  });

  test("the status bar tells of Serve's NATS surface while the page is not connected; Agents say whose version; Tap shows clock times", async ({ page, app }) => {
    test.setTimeout(90_000);
    const serve = new ServePage(page);
    const fisk = new FiskPage(page);
    await serve.open(app.url);
    await serve.natsStart.click();
    await expect(serve.natsState).toHaveText("running");
    const note = page.getByTestId("status-served-nats");
    await expect(note).toContainText("Serve's NATS surface is running", { timeout: 10_000 });
    await expect(note).toContainText("this page is not connected");

    await page.getByRole("tab", { name: "NATS" }).click();
    await fisk.nats.connect();
    await expect(fisk.nats.state).toHaveText("connected");
    await expect(note).toHaveCount(0);

    await fisk.openTab("Tap");
    await page.getByRole("button", { name: "Start tap" }).click();
    await fisk.openTab("Agents");
    await page.getByRole("button", { name: "Find agents" }).click();
    const live = page.getByRole("table", { name: "Live agents" });
    await expect(live).toContainText("patchbay-demo");
    await expect(live.getByRole("columnheader")).toContainText(["Identity", "Service version", "Card version"]);
    await live.getByRole("button", { name: "Discover patchbay-demo" }).click();
    await expect(page.getByTestId("agent-summary")).toContainText("Card of patchbay-demo");
    const row = live.getByRole("row").filter({ hasText: "patchbay-demo" });
    await expect(row.getByRole("cell").nth(2)).not.toHaveText("—");

    await fisk.openTab("Tap");
    const first = page.getByTestId("tap-time").first();
    await expect(first).toHaveText(/^\d\d:\d\d:\d\d\.\d{3} \+[\d,]+\.\d ms$/);
  });
});
