import { spawn, type ChildProcess } from "node:child_process";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { ROOT } from "../app-info.ts";
import { expect, test } from "../fixtures.ts";
import { McpServersPage } from "../pages/mcp-servers-page.ts";
import { LOOPBACK_IMPORT } from "../../helpers/everything-server.ts";

const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const ENV_SECRET = "e2e-env-secret-5150";
const TOKEN = "e2e-bearer-token-8086";


/** server-everything over Streamable HTTP (it sends CORS headers for any origin) on a loopback port. */
async function everythingHttp(children: ChildProcess[]): Promise<string> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((r) => probe.close(r));
  const child = spawn(process.execPath, [...LOOPBACK_IMPORT, EVERYTHING, "streamableHttp"], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    let said = "";
    child.stderr!.on("data", (d: Buffer) => {
      said += d.toString();
      if (/listening on port/.test(said)) resolve();
    });
    child.once("exit", (code) => reject(new Error(`server-everything exited (${code}): ${said}`)));
  });
  return `http://127.0.0.1:${port}/mcp`;
}

/** A minimal MCP server that sends no CORS headers: a browser page may not call it, the backend may. */
async function withoutCors(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (d: string) => (body += d));
    req.on("end", () => {
      if (req.method !== "POST") return void res.writeHead(405).end();
      const rpc = JSON.parse(body) as { id?: number; method: string; params?: { protocolVersion?: string } };
      if (rpc.id === undefined) return void res.writeHead(202).end();
      const result =
        rpc.method === "initialize"
          ? { protocolVersion: rpc.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "no-cors", version: "1" } }
          : rpc.method === "tools/list"
            ? { tools: [{ name: "hello", inputSchema: { type: "object" } }] }
            : {};
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: rpc.id, result }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server };
}

test.describe("saved MCP servers and mcpServers files", () => {
  test("import a Claude Desktop file, connect to a server from it, save, reload, export; no secret reaches the disk, the log or the console", async ({ page, app, status }) => {
    const browserConsole: string[] = [];
    page.on("console", (m) => browserConsole.push(m.text()));
    const servers = new McpServersPage(page);
    const name = `everything-${Date.now().toString(36)}`;
    const claude = {
      globalShortcut: "",
      mcpServers: {
        [name]: { command: process.execPath, args: [EVERYTHING, "stdio"], env: { E2E_SECRET: ENV_SECRET } },
        [`${name} remote`]: { type: "http", url: "http://127.0.0.1:9/mcp", headers: { Authorization: `Bearer ${TOKEN}` } },
        broken: { command: 5 },
      },
    };
    await servers.mcp.open(app.url);
    await servers.importJson(JSON.stringify(claude, null, 2));
    await expect(servers.status).toContainText("imported 2 of 3 servers from the pasted text; their secret values stay in this tab only");
    await expect(servers.notes).toContainText('Not imported: "broken": "command" must be a non-empty string, not a number (5).');
    await expect(servers.notes).toContainText(`"${name} remote" is saved as "${name}-remote"`);
    await expect(servers.notes).toContainText("Ignored top-level fields: globalShortcut.");

    // On disk: the servers, without their secret values.
    const file = await readFile(join(status.workspace, "servers", `${name}.json`), "utf8");
    expect(JSON.parse(file)).toMatchObject({
      format: "patchbay.servers",
      version: 1,
      data: { protocol: "mcp", name, server: { type: "stdio", command: process.execPath, args: [EVERYTHING, "stdio"], env: { E2E_SECRET: "" } }, secrets: "omitted" },
    });
    expect(file).not.toContain(ENV_SECRET);
    expect(await readFile(join(status.workspace, "servers", `${name}-remote.json`), "utf8")).not.toContain(TOKEN);

    // The remote server: the token is in the form (this tab knows it) and goes nowhere else.
    await servers.pick(`${name}-remote`);
    await expect(servers.serverUrl).toHaveValue("http://127.0.0.1:9/mcp");
    await expect(servers.bearerToken).toHaveValue(TOKEN);
    await expect(servers.connectVia).toHaveValue("relay");
    await servers.mcp.connectButton.click();
    await expect(servers.mcp.failure).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId("mcp-failed-step")).toHaveText("tcp");
    await expect(page.getByRole("region", { name: "Server console" })).not.toContainText(TOKEN);

    // Pick the stdio server and connect to it.
    await servers.pick(name);
    await expect(servers.mcp.transport).toHaveValue("stdio");
    await expect(servers.mcp.command).toHaveValue(process.execPath);
    await expect(servers.mcp.args).toHaveValue(`${EVERYTHING}\nstdio`);
    await expect(servers.envValue(1)).toHaveValue(ENV_SECRET);
    await servers.mcp.connectButton.click();
    await expect(servers.mcp.state).toHaveText("connected", { timeout: 20_000 });
    await expect(servers.mcp.tools.getByRole("option").first()).toBeVisible();

    // Save it under another name.
    await servers.saveAs.fill(`${name}-copy`);
    await servers.save.click();
    await expect(servers.status).toHaveText(`saved "${name}-copy" (environment and header values and the bearer token are not saved)`);

    // Export: a Claude Desktop file with every saved server, secret values left empty.
    const exported = await servers.export("claude");
    expect(exported.name).toBe("claude_desktop_config.json");
    const parsed = JSON.parse(exported.text) as { mcpServers: Record<string, unknown> };
    expect(parsed.mcpServers[name]).toEqual({ command: process.execPath, args: [EVERYTHING, "stdio"], env: { E2E_SECRET: "" } });
    expect(parsed.mcpServers[`${name}-copy`]).toEqual(parsed.mcpServers[name]);
    expect(parsed.mcpServers[`${name} remote`]).toEqual({ type: "http", url: "http://127.0.0.1:9/mcp", headers: { Authorization: "" } });
    expect(exported.text).not.toContain(ENV_SECRET);
    expect(exported.text).not.toContain(TOKEN);
    await expect(servers.status).toContainText("with secret values left empty");

    // Nothing the Traffic log holds, and nothing the page printed, carries a secret.
    await page.getByRole("tab", { name: "Traffic" }).click();
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export JSONL" }).click()]);
    const traffic = await readFile(await download.path(), "utf8");
    expect(traffic).toContain('"channel":"mcp"');
    expect(traffic).toContain("tools/list");
    expect(traffic).not.toContain(TOKEN);
    expect(traffic).not.toContain(ENV_SECRET);
    expect(browserConsole.join("\n")).not.toContain(TOKEN);

    // After a reload the copy is still there, its secret value is not.
    await page.reload();
    await page.getByRole("tab", { name: "MCP" }).click();
    await servers.pick(`${name}-copy`);
    await expect(servers.status).toHaveText(`loaded "${name}-copy"; give environment variable E2E_SECRET again (secret values are not saved)`);
    await expect(servers.mcp.command).toHaveValue(process.execPath);
    await expect(servers.mcp.args).toHaveValue(`${EVERYTHING}\nstdio`);
    await expect(servers.envValue(1)).toHaveValue("");
  });

  test("direct from the page when the server allows CORS; Auto falls back to the relay when it does not", async ({ page, app }) => {
    const children: ChildProcess[] = [];
    const plain = await withoutCors();
    try {
      const relayed: string[] = [];
      page.on("request", (r) => {
        if (r.url().includes("/api/mcp/sessions")) relayed.push(r.url());
      });
      const servers = new McpServersPage(page);
      const everything = await everythingHttp(children);
      await servers.mcp.open(app.url);
      await servers.mcp.transport.selectOption("streamable-http");
      await servers.serverUrl.fill(everything);
      await servers.connectVia.selectOption("direct");
      await servers.bearerToken.fill(TOKEN);
      await servers.mcp.connectButton.click();
      await expect(servers.mcp.state).toHaveText("connected", { timeout: 20_000 });
      await expect(servers.mcp.tools.getByRole("option").first()).toBeVisible();
      await servers.mcp.call("echo", '{"message":"straight from the page"}');
      await expect(servers.mcp.content).toContainText("Echo: straight from the page");
      expect(relayed).toEqual([]);
      await servers.mcp.connectButton.click();
      await expect(servers.mcp.state).toHaveText("idle");

      const console_ = page.getByRole("region", { name: "Server console" });
      await servers.serverUrl.fill(plain.url);
      // Direct alone names the refusal as its own step.
      await servers.mcp.connectButton.click();
      await expect(page.getByTestId("mcp-failed-step")).toHaveText("cors");
      await expect(page.getByRole("alert", { name: "Connection failure" })).toContainText("does not allow this page's origin (CORS)");
      await servers.connectVia.selectOption("auto");
      await servers.mcp.connectButton.click();
      await expect(servers.mcp.state).toHaveText("connected", { timeout: 20_000 });
      await expect(console_).toContainText(`the server at ${new URL(plain.url).origin} does not allow this page's origin (CORS); use the relay`);
      await expect(console_).toContainText("connecting through the backend relay instead");
      await expect(console_).not.toContainText(TOKEN);
      expect(relayed.length).toBeGreaterThan(0);
      // The one tool of the relayed server; the count follows the filter, which still holds "echo" from before.
      await expect(servers.mcp.toolCount).toHaveText("0 of 1");
    } finally {
      for (const child of children) child.kill("SIGKILL");
      await new Promise((r) => plain.server.close(r));
    }
  });

  test("server-everything over Streamable HTTP through the relay (the default): tools, a call, a resource, and every frame in Traffic", async ({ page, app }) => {
    const children: ChildProcess[] = [];
    try {
      const servers = new McpServersPage(page);
      const everything = await everythingHttp(children);
      await servers.mcp.open(app.url);
      await servers.mcp.transport.selectOption("streamable-http");
      await servers.serverUrl.fill(everything);
      await expect(servers.connectVia).toHaveValue("relay");
      await servers.mcp.connectButton.click();
      await expect(servers.mcp.state).toHaveText("connected", { timeout: 20_000 });
      await expect(servers.mcp.tools.getByRole("option").first()).toBeVisible();
      await servers.mcp.call("get-sum", '{"a":2,"b":40}');
      await expect(servers.mcp.outcome).toHaveText("Success");
      await expect(servers.mcp.content).toContainText("42");
      await page.getByRole("tablist", { name: "Inspect" }).getByRole("tab", { name: /Resources/ }).click();
      const resources = page.getByRole("listbox", { name: "Resources", exact: true }).getByRole("option");
      await expect(resources.first()).toBeVisible();
      await resources.first().click();
      await page.getByRole("button", { name: "Read", exact: true }).click();
      await expect(page.getByRole("region", { name: "Read result" })).toContainText("demo://");
      await page.getByRole("tab", { name: "Traffic" }).click();
      await page.getByRole("searchbox", { name: "Search" }).fill("get-sum");
      const rows = page.getByRole("listbox", { name: "Frames" }).getByRole("option");
      await expect(rows.filter({ hasText: /sent mcp .*tools\/call/ })).toHaveCount(1);
      // The answer is an HTTP frame: its status and headers (the session id, the content type) are recorded.
      // Found by its request's method, which a method filter keeps it by.
      await page.getByRole("searchbox", { name: "Search" }).fill("");
      await page.getByLabel("Method or protocol").fill("tools/call");
      await rows.filter({ hasText: /received mcp .*↩ tools\/call/ }).first().click();
      const detail = page.getByTestId("traffic-detail");
      await expect(detail).toContainText("status 200");
      await expect(detail.getByTestId("traffic-answer-to")).toHaveText("answer to tools/call");
      const headers = detail.getByRole("table", { name: "Frame headers" });
      const header = (name: string) => headers.getByRole("row").filter({ has: page.getByRole("cell", { name, exact: true }) });
      await expect(header("mcp-session-id")).toHaveCount(1);
      await expect(header("mcp-session-id").getByRole("cell").nth(1)).toHaveText(/\S/);
      await expect(header("content-type")).toContainText(/application\/json|text\/event-stream/);
    } finally {
      for (const child of children) child.kill("SIGKILL");
    }
  });

  test("a file that is not a client config is refused with the reason, and nothing is saved", async ({ page, app }) => {
    const servers = new McpServersPage(page);
    await servers.mcp.open(app.url);
    await servers.importJson('{"command": "npx", "args": ["server"]}');
    await expect(servers.alert).toHaveText('the pasted text: This looks like one server entry, not a map of servers: wrap it as {"mcpServers": {"a-name": …}}.');
    await expect(servers.importText).toHaveValue('{"command": "npx", "args": ["server"]}');
  });
});
