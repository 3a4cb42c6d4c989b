import { connect } from "@nats-io/transport-node";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { discoveryRequest, discoverySubject, encodeFiskBytes } from "../../../src/core/fisk/codec/index.ts";
import { BackendClient } from "../../../src/core/backend/backend-client.ts";
import { expect, test } from "../fixtures.ts";
import { EditorPage } from "../pages/editor-page.ts";
import { ServePage } from "../pages/serve-page.ts";
import { TrafficPage } from "../pages/traffic-page.ts";

interface TextResult {
  readonly content?: readonly { readonly type: string; readonly text?: string }[];
  readonly isError?: boolean;
}

const textOf = (result: unknown): string => ((result as TextResult).content ?? []).map((c) => c.text ?? "").join("\n");

async function sdkClient(url: string): Promise<Client> {
  const client = new Client({ name: "patchbay-e2e", version: "0.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

test.describe("Serve workbench", () => {
  const clients: Client[] = [];

  test.afterEach(async ({ app }) => {
    for (const c of clients.splice(0)) await c.close().catch(() => undefined);
    // The backend outlives this spec: leave nothing serving.
    const backend = new BackendClient({ fetch, token: app.token, baseUrl: app.origin });
    await backend.call("POST", "/serve/mcp/stop", {}).catch(() => undefined);
    await backend.call("POST", "/serve/nats/stop", {}).catch(() => undefined);
    await backend.call("DELETE", "/workspace/toolkits/e2e-kit").catch(() => undefined);
  });

  test("serves the demo toolkit over MCP to the SDK client, logs the traffic, and answers confirm calls as the operator", async ({ page, app }) => {
    const serve = new ServePage(page);
    await serve.open(app.url);
    await expect(serve.mcpSet).toContainText("computed from the editor (not running)");
    await expect(serve.snippets).toContainText("Save the toolkit to the workspace for the stdio snippets");
    await serve.saveAs("e2e-kit");
    await expect(serve.snippet("Claude Desktop (claude_desktop_config.json)")).toContainText("e2e-kit.json");
    const desktop = JSON.parse((await serve.snippet("Claude Desktop (claude_desktop_config.json)").textContent()) ?? "{}") as { mcpServers: Record<string, { args: string[] }> };
    expect(desktop.mcpServers["patchbay-demo"]?.args.slice(-3)).toEqual(["serve", "--stdio", expect.stringMatching(/[\\/]toolkits[\\/]e2e-kit\.json$/)]);
    await expect(serve.snippet("Claude Code, stdio")).toContainText("claude mcp add patchbay-demo -- ");
    const url = await serve.startMcp({ port: "0", mode: "auto" });
    await expect(serve.mcpSet).toContainText("as the backend serves it");
    await expect(serve.mcpSet.getByText("echo", { exact: true })).toBeVisible();
    await expect(serve.snippet("MCP Inspector")).toContainText(`URL: ${url}`);
    await expect(serve.snippet("Claude Code, Streamable HTTP")).toHaveText(`claude mcp add --transport http patchbay-demo ${url}`);

    const client = await sdkClient(url);
    clients.push(client);
    const echoed = await client.callTool({ name: "echo", arguments: { message: "hello from the e2e client" } });
    expect(textOf(echoed)).toContain("hello from the e2e client");
    await expect(serve.mcpSessions).toHaveText("1");
    await expect(serve.mcpTraffic).toContainText(/Served traffic in the Traffic log: [1-9]\d* frames/);

    // The call's frames, verbatim, in the Traffic log: the request in, the answer out.
    await page.getByRole("tab", { name: "Traffic" }).click();
    const traffic = new TrafficPage(page);
    await traffic.search.fill("hello from the e2e client");
    await expect(traffic.rows).toHaveCount(2);
    await expect(traffic.rows.first()).toContainText("served mcp");
    await expect(traffic.rows.first()).toContainText("tools/call");
    await traffic.rows.first().click();
    await expect(traffic.rawBytes).toContainText('"name":"echo"');

    // Back in Serve (the surface kept running meanwhile): restart in operator mode.
    await serve.reopen();
    await expect(serve.mcpState).toHaveText("running");
    await serve.mcpStop.click();
    await expect(serve.mcpState).toHaveText("stopped");
    const operatorUrl = await serve.startMcp({ port: "0", mode: "operator" });
    await expect(serve.approvals).toContainText("No request is waiting for approval.");
    const operatorClient = await sdkClient(operatorUrl);
    clients.push(operatorClient);

    const approved = operatorClient.callTool({ name: "confirm", arguments: { action: "launch the e2e rocket" } });
    const ask = serve.approval("confirm");
    await expect(ask).toContainText("launch the e2e rocket");
    await expect(ask).toContainText(/\d:\d\d left/);
    await ask.getByRole("button", { name: "Approve" }).focus();
    await page.keyboard.press("Enter");
    const ran = (await approved) as TextResult;
    expect(ran.isError).toBeFalsy();
    await expect(serve.pending).toHaveCount(0);
    await expect(serve.approvalsHeading).toBeFocused();

    const refused = operatorClient.callTool({ name: "confirm", arguments: { action: "delete the e2e rocket" } });
    await expect(serve.approval("confirm")).toContainText("delete the e2e rocket");
    await serve.approval("confirm").getByRole("button", { name: "Refuse" }).click();
    const no = (await refused) as TextResult;
    expect(no.isError).toBe(true);
    expect(textOf(no)).toContain("chose not to run it");
  });

  test("refuses to start a toolkit with errors, saying why, and asks the backend nothing", async ({ page, app }) => {
    const serve = new ServePage(page);
    await serve.open(app.url);
    const editor = new EditorPage(page, "Toolkit JSON");
    await editor.waitReady();
    await editor.replaceText('{"format":"patchbay.toolkit","version":1,"name":"bad name","description":"","tools":[]}');
    await expect(page.getByTestId("toolkit-summary")).toContainText("error");
    const starts: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/api/serve/") && r.url().endsWith("/start")) starts.push(r.url());
    });
    await serve.mcpStart.click();
    await expect(serve.mcp.getByRole("alert")).toContainText("Not started: the toolkit in the editor has an error; fix it first. The first: /name");
    await serve.natsStart.click();
    await expect(serve.nats.getByRole("alert")).toContainText("Not started: the toolkit in the editor has an error");
    await expect(serve.mcpState).toHaveText("stopped");
    await expect(serve.natsState).toHaveText("stopped");
    expect(starts).toEqual([]);
  });

  test("the toolkit's headline counts what its Problems list shows; a repeated tool name is an error there; a stale refusal says so", async ({ page, app }) => {
    const serve = new ServePage(page);
    await serve.open(app.url);
    const editor = new EditorPage(page, "Toolkit JSON");
    await editor.waitReady();
    const tool = (name: string, extra: object = {}) => ({ name, description: "d", inputSchema: { type: "object" }, run: { builtin: "echo" }, ...extra });
    // A key the schema does not allow ("timeoutMs" beside "builtin") is readToolkit's to judge, and it does not mind.
    const kit = { format: "patchbay.toolkit", version: 1, name: "kit", tools: [tool("echo"), tool("echo"), tool("ls", { inputSchema: undefined }), tool("t", { run: { builtin: "echo", timeoutMs: 5 } })] };
    await editor.replaceText(JSON.stringify(kit, null, 2));
    const summary = page.getByTestId("toolkit-summary");
    await expect(summary).toHaveText("kit: 3 tools (1 left out) · 1 error · 1 warning");
    await expect(editor.problemsRegion.getByRole("heading")).toHaveText("Problems (2)");
    await expect(editor.problems.filter({ hasText: '"echo" is already the name of /tools/0' })).toHaveCount(1);
    await expect(editor.problems.filter({ hasText: "is missing" })).toHaveCount(1);

    await serve.mcpStart.click();
    const refusal = serve.mcp.getByRole("alert");
    await expect(refusal).toContainText("Not started: the toolkit in the editor has an error; fix it first. The first: /tools/1/name");
    await expect(serve.mcp.getByTestId("stale-note")).toHaveCount(0);

    // A file that is not JSON says so, not that "a toolkit must be a JSON object".
    const kitRegion = page.getByRole("region", { name: "Toolkit", exact: true });
    await kitRegion.getByLabel("Import file").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello, I am a text file\n") });
    await expect(kitRegion.getByRole("alert")).toHaveText("notes.txt is not a usable toolkit: not JSON, and not a YAML mapping either (as YAML it is a plain string)");

    await editor.replaceText('{"a": 2, "b": }');
    await expect(summary).toHaveText("not JSON: see Problems");
    await expect(editor.problems).toHaveCount(1);
    await expect(editor.problems.first()).toContainText("Value expected");
    await expect(serve.mcp.getByTestId("stale-note")).toBeVisible();
  });

  test("serves the toolkit as a fisk-ai peer over NATS, with its subjects, snippets and traffic", async ({ page, app, status }) => {
    const serve = new ServePage(page);
    await serve.open(app.url);
    await expect(serve.natsSet.getByText("confirm", { exact: true })).toBeVisible();
    await serve.natsStart.click();
    await expect(serve.natsState).toHaveText("running");
    await expect(serve.natsSubjects).toContainText("choria.fisk-ai.discovery.patchbay-demo");
    await expect(serve.natsSubjects).toContainText("choria.fisk-ai.tool.patchbay-demo");
    await expect(serve.natsSet).toContainText("as the backend serves it");
    await expect(serve.natsSet).toContainText("needs approval (ai:confirm)");
    await expect(serve.snippet("NATS subjects")).toContainText("choria.fisk-ai.tool.patchbay-demo");
    await expect(serve.snippet("fisk-ai remote_tools entry")).toContainText("- name: patchbay-demo");

    // A peer on the backend's own nats-server asks for the card.
    expect(status.nats.url).toMatch(/^nats:\/\//);
    const nc = await connect({ servers: status.nats.url ?? "" });
    try {
      const ctx = { clock: { wallNow: () => Date.now() }, random: (b: Uint8Array) => crypto.getRandomValues(b), sender: { name: "e2e-peer" }, recipient: { name: "patchbay-demo" } };
      const reply = await nc.request(discoverySubject("patchbay-demo"), encodeFiskBytes(discoveryRequest(ctx)), { timeout: 5000 });
      expect(new TextDecoder().decode(reply.data)).toContain("discovery.reply");
    } finally {
      await nc.close();
    }
    await expect(page.getByTestId("nats-traffic")).toContainText(/Served traffic in the Traffic log: [1-9]\d* frames/);
    await page.getByRole("tab", { name: "Traffic" }).click();
    const traffic = new TrafficPage(page);
    await traffic.search.fill("served nats choria.fisk-ai.discovery.patchbay-demo");
    await expect(traffic.rows.first()).toContainText("discovery.request");

    await serve.reopen();
    await serve.natsStop.click();
    await expect(serve.natsState).toHaveText("stopped");
  });
});
