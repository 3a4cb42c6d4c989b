import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../../server/nats/free-port.ts";
import { startBackend, type RunningBackend } from "../backend.ts";
import { expect, test } from "../fixtures.ts";
import { McpPage } from "../pages/mcp-page.ts";
import { NatsPage } from "../pages/nats-page.ts";

/**
 * Faults named in the page: an MCP stdio server that crashes after connecting (its exit code and
 * last stderr, the connection marked ended, Reconnect one click away), and the backend restarted
 * under an open page (it says so, and carries on with the new launch's URL, losing nothing).
 */

/** A stdio MCP server that answers initialize and tools/list, then crashes 2 s later (long enough for the page to show it connected) with a message on stderr (one line: the form takes one argument per line). */
const CRASHING = `
const rl = require("node:readline").createInterface({ input: process.stdin });
const send = (m) => process.stdout.write(JSON.stringify(m) + "\\n");
rl.on("line", (line) => {
  const m = JSON.parse(line);
  if (m.method === "initialize") send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "crasher", version: "1.0.0" } } });
  else if (m.method === "tools/list") {
    send({ jsonrpc: "2.0", id: m.id, result: { tools: [] } });
    setTimeout(() => { console.error("loading the index"); console.error("fatal: out of cheese"); process.exit(3); }, 2_000);
  }
});`.replace(/\n/g, " ");

test("an MCP stdio server that crashes: its exit code and last stderr are shown, the connection is ended, and Reconnect brings it back", async ({ page, app }) => {
  const mcp = new McpPage(page);
  await mcp.open(app.url);
  await mcp.connectStdio(process.execPath, ["-e", CRASHING]);
  const ended = page.getByTestId("mcp-ended");
  await expect(ended).toContainText("The server ended: process exited with code 3", { timeout: 20_000 });
  await expect(ended.getByLabel("Last stderr")).toHaveText("loading the index\nfatal: out of cheese");
  await expect(mcp.state).toHaveText("closed");
  await ended.getByRole("button", { name: "Reconnect" }).click();
  await expect(mcp.state).toHaveText("connected", { timeout: 20_000 });
  await expect(ended).toHaveCount(0);
  // It crashes again the same way, and says so again.
  await expect(page.getByTestId("mcp-ended")).toContainText("exited with code 3", { timeout: 20_000 });
});

test.describe("the backend restarted under an open page", () => {
  const launched: RunningBackend[] = [];
  let workspace = "";

  test.beforeAll(() => {
    workspace = mkdtempSync(join(tmpdir(), "patchbay-e2e-restart-"));
  });
  test.afterAll(async () => {
    for (const backend of launched) await backend.stop();
    rmSync(workspace, { recursive: true, force: true });
  });

  /** Both launches share one port and one workspace, as a restarted `patchbay start` would. */
  async function launch(port: number): Promise<RunningBackend> {
    const backend = await startBackend({ port, nats: false, workspace });
    launched.push(backend);
    return backend;
  }

  test("the page says the backend stopped, then that it was restarted, and carries on with the new launch's URL without losing what was typed", async ({ page }) => {
    const port = await freePort();
    const first = await launch(port);
    const nats = new NatsPage(page);
    await nats.open(first.info.url);
    await expect(page.getByTestId("status-backend")).toContainText("Backend: connected");
    await nats.subject.fill("orders.kept.across.restarts");

    first.child.kill("SIGTERM");
    await expect(page.getByTestId("status-backend")).toContainText("Backend: not answering", { timeout: 20_000 });
    const second = await launch(port);
    expect(second.info.token).not.toBe(first.info.token);
    const relaunch = page.getByRole("form", { name: "Backend restarted" });
    await expect(relaunch).toContainText("Backend restarted", { timeout: 10_000 });
    await expect(page.getByTestId("status-backend")).toHaveText("Backend: restarted (new launch)");

    await relaunch.getByLabel("New launch URL").fill(first.info.url);
    await relaunch.getByRole("button", { name: "Use it" }).click();
    await expect(relaunch.getByRole("alert")).toContainText("not this backend's token");
    await relaunch.getByLabel("New launch URL").fill(second.info.url);
    await relaunch.getByRole("button", { name: "Use it" }).click();
    await expect(page.getByTestId("status-backend")).toContainText("Backend: connected");
    await expect(relaunch).toHaveCount(0);
    await expect(nats.subject).toHaveValue("orders.kept.across.restarts");
    // The page speaks to the new launch: an API call (the workspace's saved connections) answers.
    const listed = await page.evaluate(async (token) => (await fetch("/api/status", { headers: { authorization: `Bearer ${token}` } })).status, second.info.token);
    expect(listed).toBe(200);
  });
});
