import { join } from "node:path";
import { ROOT } from "../app-info.ts";
import { expect, test } from "../fixtures.ts";
import { McpInspectPage } from "../pages/mcp-inspect-page.ts";
import { McpPage } from "../pages/mcp-page.ts";

const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");

test.describe("MCP workbench: inspecting server-everything (stdio)", () => {
  test("shows tool badges and lint, reads a resource, fills a template and gets a prompt with arguments", async ({ page, app }) => {
    const mcp = new McpPage(page);
    const inspect = new McpInspectPage(page);
    await mcp.open(app.url);
    await mcp.connectStdio(process.execPath, [EVERYTHING, "stdio"]);
    await expect(mcp.state).toHaveText("connected", { timeout: 20_000 });

    // Tools: annotation badges in the row, the lint of the selected tool, compiled in the worker.
    await expect(inspect.tab("Tools")).toHaveAttribute("aria-selected", "true");
    // Resources and prompts are not listed until their tab is opened.
    await expect(inspect.tab("Resources")).toHaveText("Resources");
    await mcp.toolFilter.fill("get-sum");
    const row = inspect.tools.getByRole("option").filter({ hasText: /^get-sum\b/ });
    await expect(row).toContainText("Get Sum Tool");
    await expect(row).toContainText("read-only");
    await expect(row).toContainText("idempotent");
    await row.click();
    await expect(inspect.lintSummary).toHaveText("0 errors, 0 warnings, 1 note");
    await expect(inspect.lint).toContainText("additionalProperties is absent");
    await expect(inspect.lintCompiles).toHaveText("The schemas compile.");

    // Resources: read a static document.
    await inspect.openTab("Resources");
    await expect(inspect.tab("Resources")).toHaveText(/^Resources \([1-9]\d*\)$/);
    await expect(inspect.resources.getByRole("option").first()).toBeVisible();
    await inspect.selectResource("instructions.md");
    await inspect.read.click();
    await expect(inspect.readResult).toContainText("demo://resource/static/document/instructions.md");
    await expect(inspect.contents).toContainText("text/markdown");
    await expect(inspect.resourceRaw).toContainText('"contents": [');

    // A template: fill its variable, see the URI it names, read it.
    await inspect.selectTemplate("Dynamic Text Resource");
    await page.getByLabel("resourceId").fill("3");
    await expect(inspect.templateUri).toHaveText("demo://resource/dynamic/text/3");
    await inspect.read.click();
    await expect(inspect.contents).toContainText("Resource 3: This is a plaintext resource");

    // A blob template: its size, its first bytes, and a save button.
    await inspect.selectTemplate("Dynamic Blob Resource");
    await page.getByLabel("resourceId").fill("4");
    await inspect.read.click();
    await expect(inspect.contents).toContainText("Resource 4: This is a base64 blob");
    await expect(inspect.contents.getByRole("button", { name: "Save 4.txt" })).toBeVisible();

    // Prompts: a required argument left empty is named; filled in, the messages come back.
    await inspect.openTab("Prompts");
    await inspect.selectPrompt("args-prompt");
    await inspect.getPrompt.click();
    await expect(inspect.promptForm.getByRole("alert")).toHaveText('Fill in the required argument "city".');
    await inspect.promptForm.getByLabel("city").fill("Tokyo");
    await inspect.promptForm.getByLabel("state").fill("Kanto");
    await inspect.getPrompt.click();
    await expect(inspect.promptMessages).toContainText("What's weather in Tokyo, Kanto?");
    await expect(inspect.promptRaw).toContainText('"role": "user"');

    // Switching back keeps the tool selected.
    await inspect.openTab("Tools");
    await expect(page.getByTestId("mcp-tool-name")).toHaveText("get-sum");
  });

  test("subscribes to a resource and sees its updates; a resource the server adds appears in the list", async ({ page, app }) => {
    const mcp = new McpPage(page);
    const inspect = new McpInspectPage(page);
    await mcp.open(app.url);
    await mcp.connectStdio(process.execPath, [EVERYTHING, "stdio"]);
    await expect(mcp.state).toHaveText("connected", { timeout: 20_000 });

    await inspect.openTab("Resources");
    await inspect.selectResource("instructions.md");
    await inspect.subscribe.click();
    await expect(inspect.subscribe).toHaveText("Unsubscribe");
    await expect(inspect.subscribe).toHaveAttribute("aria-pressed", "true");
    const before = Number(await inspect.resourceCount.textContent());

    await inspect.openTab("Tools");
    await mcp.call("toggle-subscriber-updates", "{}");
    await expect(mcp.outcome).toHaveText("Success");
    await mcp.call("gzip-file-as-resource", '{"name":"hello.txt.gz","data":"data:text/plain;base64,aGVsbG8=","outputType":"resourceLink"}');
    await expect(mcp.outcome).toHaveText("Success");

    await inspect.openTab("Resources");
    await expect(inspect.updates).toContainText("notifications/resources/updated demo://resource/static/document/instructions.md");
    await expect(inspect.resourceCount).toHaveText(String(before + 1));
    await inspect.selectResource("hello.txt.gz");
    await inspect.read.click();
    await expect(inspect.contents).toContainText("application/gzip");
    await expect(inspect.contents.getByRole("button", { name: "Save hello.txt.gz" })).toBeVisible();
  });
});
