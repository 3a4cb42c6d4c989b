import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { BackendClient } from "../../../src/core/backend/backend-client.ts";
import { ROOT } from "../app-info.ts";
import { expect, test } from "../fixtures.ts";
import { CollectionsPage, SaveToCollectionPage } from "../pages/collections-page.ts";
import { McpPage } from "../pages/mcp-page.ts";

const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");

interface StoredCollection {
  steps: { name: string; assert?: unknown[] }[];
}

test.describe("Collections workbench", () => {
  test("saves an MCP call to a new collection, edits its assertions, runs it and exports the report", async ({ page, app }) => {
    const name = `smoke-${Date.now()}`;
    const mcp = new McpPage(page);
    await mcp.open(app.url);
    await mcp.connectStdio(process.execPath, [EVERYTHING, "stdio"], "2025-06-18");
    await expect(mcp.state).toHaveText("connected", { timeout: 20_000 });
    await mcp.call("echo", '{"message":"hi"}');
    await expect(mcp.outcome).toHaveText("Success");

    const save = new SaveToCollectionPage(page.getByRole("form", { name: "Tool call" }));
    await save.toNewCollection(name);
    await expect(save.notice).toHaveText(`saved step "echo" to "${name}" (1 step)`);
    await mcp.call("get-sum", '{"a":1,"b":2}');
    await expect(mcp.outcome).toHaveText("Success");
    await save.collection.selectOption(name);
    await save.save.click();
    await expect(save.notice).toHaveText(`saved step "get-sum" to "${name}" (2 steps)`);

    // The collection as the workspace holds it, to edit the way a user edits the JSON.
    const backend = new BackendClient({ fetch, token: app.token, baseUrl: app.origin });
    const stored = (await backend.call<{ data: StoredCollection }>("GET", `/workspace/collections/${name}`)).data;
    expect(stored.steps.map((s) => s.name)).toEqual(["echo", "get-sum"]);
    expect(JSON.stringify(stored)).toContain('"method":"tools/call"');

    const col = new CollectionsPage(page);
    await col.openTab();
    await col.choose(name);
    await expect(col.valid).toHaveText("Valid collection: 2 steps");

    // A pointer without its leading "/" is refused by the checker as typed, and by the backend on save, verbatim.
    const withAssert = (assertion: object) => JSON.stringify({ ...stored, steps: [{ ...stored.steps[0], assert: [...(stored.steps[0]?.assert ?? []), assertion] }, ...stored.steps.slice(1)] }, null, 2);
    await col.editor.replaceText(withAssert({ kind: "equals", pointer: "result", value: "nope" }));
    await expect(col.unsaved).toBeVisible();
    await expect(col.problems.getByRole("listitem").first()).toContainText("/steps/0/assert/2/pointer");
    await col.save.click();
    await expect(col.error).toContainText("the collection is not valid: /steps/0/assert/2/pointer: ");
    await expect(col.unsaved).toBeVisible();

    await col.editor.replaceText(withAssert({ kind: "equals", pointer: "/result/content/0/text", value: "nope" }));
    await expect(col.valid).toHaveText("Valid collection: 2 steps");
    // The edit survives a reload, still marked unsaved.
    await page.reload();
    await col.editor.waitReady();
    await expect(col.unsaved).toBeVisible();
    await expect(col.valid).toHaveText("Valid collection: 2 steps");
    await col.save.click();
    await expect(col.notice).toHaveText(`saved "${name}"`);
    await expect(col.unsaved).toHaveCount(0);

    await col.run.click();
    await expect(col.progress).toBeVisible();
    await expect(col.progress).toHaveAttribute("aria-valuemax", "2");
    await expect(col.progress).toHaveAttribute("aria-valuenow", "2", { timeout: 30_000 });
    await expect(col.progressText).toHaveText("Finished: 2 of 2 steps");
    await expect(col.rows).toHaveCount(2);
    await expect(col.rows.nth(0)).toContainText(/failed\s*echo\s*mcp/);
    await expect(col.rows.nth(1)).toContainText(/passed\s*get-sum\s*mcp/);
    await expect(col.totals).toContainText("1 passed · 1 failed");
    // The failed step is chosen for the user: its failing assertion's message and its frames, verbatim.
    await expect(col.rows.first()).toHaveAttribute("aria-selected", "true");
    await expect(col.assertionResults.getByRole("listitem")).toHaveCount(1);
    await expect(col.assertionResults).toContainText('equals /result/content/0/text: /result/content/0/text is "Echo: hi"; expected "nope"');
    await expect(col.frames.getByRole("listitem").filter({ hasText: /"method":\s*"tools\/call"/ }).first()).toContainText("sent");
    await expect(col.frames).toContainText("Echo: hi");

    // Keyboard: the rows are a listbox moved through with the arrows; a passing step shows all its assertions.
    await col.steps.focus();
    await page.keyboard.press("ArrowDown");
    await expect(col.rows.nth(1)).toHaveAttribute("aria-selected", "true");
    await expect(col.detail.getByRole("heading", { name: "get-sum" })).toBeVisible();
    await expect(col.assertionResults.getByRole("listitem")).toHaveCount(2);
    await expect(col.assertionResults.getByRole("listitem").filter({ hasText: /^passed/ })).toHaveCount(2);
    await page.keyboard.press("Home");
    await expect(col.rows.nth(0)).toHaveAttribute("aria-selected", "true");

    const downloading = page.waitForEvent("download");
    await col.exportReport.click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(new RegExp(`^${name}-run-.*\\.json$`));
    const report = JSON.parse(await readFile(await download.path(), "utf8")) as { format: string; collection: string; steps: { name: string; status: string; assertions: { passed: boolean; message: string }[] }[] };
    expect(report.format).toBe("patchbay.run");
    expect(report.collection).toBe(name);
    expect(report.steps.map((s) => `${s.name} ${s.status}`)).toEqual(["echo failed", "get-sum passed"]);
    expect(report.steps[0]?.assertions.filter((a) => !a.passed).map((a) => a.message)).toEqual(['/result/content/0/text is "Echo: hi"; expected "nope"']);

    // A second run compares with the first: nothing changed status.
    await col.run.click();
    await expect(col.totals).toContainText("1 passed · 1 failed", { timeout: 30_000 });
    await expect(col.run).toBeEnabled();
    await col.compare.click();
    await expect(col.compareHeadline).toContainText("no step changed status");
    await expect(col.stepChanges.getByRole("listitem").filter({ hasText: /^same\s*echo\s*failed → failed/ })).toHaveCount(1);
  });
});
