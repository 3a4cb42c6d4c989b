import { join } from "node:path";
import { BackendClient } from "../../../src/core/backend/backend-client.ts";
import { ROOT } from "../app-info.ts";
import { expect, test } from "../fixtures.ts";
import { A2aPage } from "../pages/a2a-page.ts";
import { CollectionsPage, SaveToCollectionPage } from "../pages/collections-page.ts";
import { FiskPage } from "../pages/fisk-page.ts";
import { McpPage } from "../pages/mcp-page.ts";

/**
 * "Save to collection" from more workbenches: a fisk-ai tool call to Patchbay's served demo agent
 * on the app's nats-server and an A2A message to Patchbay's own served A2A agent go into one
 * collection, which then runs from the backend with both steps passing; the raw MCP box and the
 * task composer save what a step can say and refuse the rest with the reason.
 */

const AGENT = "patchbay-demo";
const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");

interface StoredCollection {
  targets: Record<string, Record<string, unknown>>;
  steps: { name: string; target: string; action: Record<string, unknown>; assert?: unknown[] }[];
}

test.describe("Save to collection from the fisk-ai, A2A and raw MCP workbenches", () => {
  let backend: BackendClient;

  test.beforeEach(async ({ app }) => {
    backend = new BackendClient({ fetch, token: app.token, baseUrl: app.origin });
    await backend.call("POST", "/serve/nats/stop", {});
    await backend.call("POST", "/serve/a2a/stop", {});
  });

  test.afterEach(async () => {
    // The backend outlives this spec: leave nothing serving.
    await backend.call("POST", "/serve/nats/stop", {}).catch(() => undefined);
    await backend.call("POST", "/serve/a2a/stop", {}).catch(() => undefined);
  });

  test("saves a tool call to the served fisk-ai agent and a message to the served A2A agent, then runs both: passed", async ({ page, app, status }) => {
    test.setTimeout(90_000);
    const name = `saved-${Date.now()}`;
    await backend.call("POST", "/serve/nats/start", { keepaliveMs: 60_000 });
    const served = await backend.call<{ cardUrl: string }>("POST", "/serve/a2a/start", { port: 0 });
    expect(served.cardUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\.well-known\/agent-card\.json$/);
    expect(status.nats.url).toMatch(/^nats:\/\//);

    const fisk = new FiskPage(page);
    await fisk.openConnected(app.url);
    await fisk.discover(AGENT);
    await fisk.call("echo", '{"message": "saved from fisk"}');
    await fisk.expectOutcome("success: the tool ran in process", "ok");
    const fromFisk = new SaveToCollectionPage(fisk.callForm);
    // A bad input is refused with the reason, and nothing is written.
    await fisk.toolInput.replaceText("{oops");
    await fromFisk.toNewCollection(name);
    await expect(fromFisk.error).toContainText("cannot save this request: the input is not valid JSON");
    await fisk.toolInput.replaceText('{"message": "saved from fisk"}');
    await fromFisk.save.click();
    await expect(fromFisk.notice).toHaveText(`saved step "echo" to "${name}" (1 step); saved with the backend's TCP address ${status.nats.url}`);

    const a2a = new A2aPage(page);
    await page.getByRole("tab", { name: "A2A (HTTP)" }).click();
    await expect(a2a.fetchButton).toBeVisible();
    await a2a.fetchCard(served.cardUrl, { exact: true });
    await expect(a2a.dialect).toHaveText("v0.3");
    await a2a.compose("Send a message", "saved from A2A");
    const fromA2a = new SaveToCollectionPage(page.getByRole("region", { name: "Compose" }));
    await fromA2a.toggle.click();
    await fromA2a.collection.selectOption(name);
    await fromA2a.save.click();
    await expect(fromA2a.notice).toHaveText(`saved step "send" to "${name}" (2 steps)`);

    // As the workspace holds it: the agent by identity on the TCP server, the A2A agent by its card.
    const stored = (await backend.call<{ data: StoredCollection }>("GET", `/workspace/collections/${name}`)).data;
    expect(stored.steps.map((s) => [s.name, s.action])).toEqual([
      ["echo", { protocol: "nats", kind: "tool", identity: AGENT, tool: "echo", input: { message: "saved from fisk" } }],
      ["send", { protocol: "a2a", operation: "send", text: "saved from A2A" }],
    ]);
    expect(stored.targets[stored.steps[0]?.target ?? ""]).toEqual({ protocol: "nats", server: status.nats.url });
    expect(stored.targets[stored.steps[1]?.target ?? ""]).toMatchObject({ protocol: "a2a", card: served.cardUrl });
    expect(stored.steps[0]?.assert).toEqual([{ kind: "outcome", is: "result" }, { kind: "valid" }]);

    const col = new CollectionsPage(page);
    await col.openTab();
    await col.choose(name);
    await expect(col.valid).toHaveText("Valid collection: 2 steps");
    await col.run.click();
    await expect(col.progressText).toHaveText("Finished: 2 of 2 steps", { timeout: 45_000 });
    await expect(col.rows).toHaveCount(2);
    await expect(col.rows.nth(0)).toContainText(/passed\s*echo\s*nats/);
    await expect(col.rows.nth(1)).toContainText(/passed\s*send\s*a2a/);
    await expect(col.totals).toContainText("2 passed · 0 failed · 0 errors");
    // The tool call's frames, as the backend sent and read them over TCP.
    await col.rows.nth(0).click();
    await expect(col.assertionResults.getByRole("listitem").filter({ hasText: /^passed/ })).toHaveCount(2);
    await expect(col.frames).toContainText("saved from fisk");
  });

  test("the raw MCP box and the task composer save a request, and refuse a notification and a resume with the reason", async ({ page, app }) => {
    const name = `saved-raw-${Date.now()}`;
    const mcp = new McpPage(page);
    await mcp.open(app.url);
    await mcp.connectStdio(process.execPath, [EVERYTHING, "stdio"], "2025-06-18");
    await expect(mcp.state).toHaveText("connected", { timeout: 20_000 });
    const fromRaw = new SaveToCollectionPage(page.getByRole("region", { name: "Raw JSON-RPC" }));
    await mcp.rawMessage.fill('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    await fromRaw.toNewCollection(name);
    await expect(fromRaw.error).toHaveText('cannot save this request: this is a notification (no "id"), which has no answer to check: give it an id to save it as a request');
    await mcp.rawMessage.fill('{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{}}');
    await fromRaw.save.click();
    await expect(fromRaw.notice).toHaveText(`saved step "tools/list" to "${name}" (1 step)`);

    await backend.call("POST", "/serve/nats/start", { keepaliveMs: 60_000 });
    const fisk = new FiskPage(page);
    await fisk.openConnected(app.url);
    await fisk.openTab("Tasks");
    const form = page.getByRole("form", { name: "Task request" });
    await form.getByLabel("Agent identity").fill("nats-worker");
    await form.getByRole("radio", { name: "Resume" }).check();
    const fromTask = new SaveToCollectionPage(form);
    await fromTask.toggle.click();
    await fromTask.collection.selectOption(name);
    await fromTask.save.click();
    await expect(fromTask.error).toContainText("only a new prompt is saved as a step, not resume");
    await form.getByRole("radio", { name: "New prompt" }).check();
    await form.getByRole("textbox", { name: "Prompt", exact: true }).fill("say hello");
    await form.getByRole("textbox", { name: "Context" }).fill("be brief");
    await fromTask.save.click();
    await expect(fromTask.notice).toContainText(`saved step "task nats-worker" to "${name}" (2 steps); the step sends the prompt alone; not saved: context`);

    const stored = (await backend.call<{ data: StoredCollection }>("GET", `/workspace/collections/${name}`)).data;
    expect(stored.steps.map((s) => s.action)).toEqual([
      { protocol: "mcp", method: "tools/list", params: {} },
      { protocol: "nats", kind: "task", identity: "nats-worker", text: "say hello" },
    ]);
    expect(stored.targets[stored.steps[0]?.target ?? ""]).toMatchObject({ protocol: "mcp", command: expect.stringContaining("server-everything") });
  });
});
