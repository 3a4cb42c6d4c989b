import { describe, expect, it } from "vitest";
import { manualClock } from "../../../core/env/index.ts";
import { clientFeatureServer, linked, toolServer } from "../../../core/mcp/test-servers.ts";
import { ClientFeaturesState } from "./client-features-state.svelte.ts";
import { McpWorkbenchState } from "./mcp-state.svelte.ts";
import { pageCompiler } from "./page-compiler.ts";
import { memoryHandle } from "./test-transports.ts";

type Server = Parameters<typeof linked>[0];

/** A workbench connected in memory to `server`, with the capability choice `choose` makes first. */
async function benchOn(server: Server, choose: (bench: McpWorkbenchState) => void = () => {}) {
  const transport = memoryHandle(await linked(server));
  const bench = new McpWorkbenchState(() => transport, pageCompiler(true));
  bench.form.command = "srv";
  choose(bench);
  await bench.connect();
  expect(bench.status).toBe("connected");
  return { bench, transport };
}

function call(bench: McpWorkbenchState, name: string, args: unknown): Promise<void> {
  bench.toolFilter = name;
  bench.select(bench.filteredTools.findIndex((t) => t.name === name));
  bench.argsDraft = JSON.stringify(args);
  return bench.send();
}

const resultText = (bench: McpWorkbenchState) =>
  bench.outcome?.kind === "success" ? ((bench.outcome.result.content as { text: string }[])[0]?.text ?? "") : `not a success: ${JSON.stringify(bench.outcome)}`;

describe("declared capabilities", () => {
  it("declares what the checkboxes say, elicitation, sampling and roots by default", async () => {
    const on = clientFeatureServer();
    await benchOn(on.server);
    expect(on.server.server.getClientCapabilities()).toEqual({ elicitation: { form: {} }, sampling: {}, roots: { listChanged: true } });

    const off = clientFeatureServer();
    const { bench } = await benchOn(off.server, (b) => Object.assign(b.client.choice, { sampling: false, roots: false }));
    expect(off.server.server.getClientCapabilities()).toEqual({ elicitation: { form: {} } });
    expect(bench.client.declared).toEqual({ elicitation: true, sampling: false, roots: false });
    await call(bench, "ask-model", { prompt: "x" });
    expect(resultText(bench)).toMatch(/^refused -32601: .*Method not found/);
  });
});

describe("sampling through the workbench", () => {
  it("shows the server's request and sends the edited stub", async () => {
    const { server } = clientFeatureServer();
    const { bench } = await benchOn(server);
    const pending = call(bench, "ask-model", { prompt: "Name a colour" });
    await expect.poll(() => bench.client.sampling.pending?.systemPrompt).toBe("Answer briefly.");
    expect(bench.client.sampling.pending).toMatchObject({ maxTokens: 50, modelPreferences: { hints: [{ name: "small" }] } });
    expect(bench.calling).toBe(true);
    const stub = JSON.parse(bench.client.sampling.responseText) as { content: { text: string } };
    stub.content.text = "Teal.";
    bench.client.sampling.responseText = JSON.stringify(stub);
    bench.client.sampling.send();
    await pending;
    expect(JSON.parse(resultText(bench))).toEqual({ role: "assistant", content: { type: "text", text: "Teal." }, model: "patchbay-stub", stopReason: "endTurn" });
    expect(bench.consoleLines.at(-1)).toEqual({ type: "note", text: 'Answered a sampling request (model "patchbay-stub").' });
  });

  it("declines with JSON-RPC error -1, and refuses what is still waiting on disconnect", async () => {
    const { server } = clientFeatureServer();
    const { bench } = await benchOn(server);
    const pending = call(bench, "ask-model", { prompt: "?" });
    await expect.poll(() => bench.client.sampling.pending).not.toBeNull();
    bench.client.sampling.decline();
    await pending;
    expect(resultText(bench)).toBe("refused -1: MCP error -1: The user declined the sampling request.");

    const waiting = bench.client.sampling.handle({ messages: [], maxTokens: 1 });
    await bench.disconnect();
    await expect(waiting).rejects.toThrow("The client disconnected");
    expect(bench.client.sampling.pending).toBeNull();
  });
});

describe("roots through the workbench", () => {
  it("answers roots/list with the applied roots and announces changes while connected", async () => {
    const { server, seen } = clientFeatureServer();
    const { bench } = await benchOn(server, (b) => {
      b.client.roots.rows = [{ uri: "file:///home/ada/project", name: "project" }];
      void b.client.roots.apply();
    });
    await call(bench, "list-roots", {});
    expect(JSON.parse(resultText(bench))).toEqual({ roots: [{ uri: "file:///home/ada/project", name: "project" }] });
    bench.client.roots.rows = [{ uri: "file:///tmp", name: "" }];
    await bench.client.roots.apply();
    await expect.poll(() => seen.rootsChanged).toBe(1);
    await call(bench, "list-roots", {});
    expect(JSON.parse(resultText(bench))).toEqual({ roots: [{ uri: "file:///tmp" }] });
    await bench.disconnect();
    bench.client.roots.rows = [];
    await bench.client.roots.apply();
    expect(seen.rootsChanged).toBe(1);
  });
});

describe("logging and ping through the workbench", () => {
  it("collects the server's log messages and sets its level", async () => {
    const { server } = clientFeatureServer();
    const { bench } = await benchOn(server);
    await call(bench, "log", { level: "notice", data: "first" });
    await expect.poll(() => bench.client.logs.entries.length).toBe(1);
    expect(bench.client.logs.entries[0]).toMatchObject({ level: "notice", logger: "feature-test", data: "first" });
    bench.client.logs.requestLevel = "error";
    await bench.client.setLogLevel();
    expect(bench.client.logs.levelStatus).toEqual({ ok: true, text: "The server now sends messages at error and above." });
    await call(bench, "log", { level: "warning", data: "filtered by the server" });
    await call(bench, "log", { level: "critical", data: "kept" });
    await expect.poll(() => bench.client.logs.entries.map((e) => e.data)).toEqual(["first", "kept"]);
  });

  it("shows a ping's round trip, and why it failed once the connection is gone", async () => {
    const clock = manualClock();
    const client = new ClientFeaturesState(clock);
    const { bench } = await benchOn(toolServer());
    const connection = bench.connection;
    if (!connection) throw new Error("not connected");
    client.connectOptions(bench.elicitation.handle);
    client.attach(connection, () => {});
    const ping = client.ping(1_000);
    clock.advance(12.5);
    await ping;
    expect(client.pingResult).toEqual({ ok: true, ms: 12.5, method: "ping" });
    await connection.close();
    await client.ping(1_000);
    expect(client.pingResult).toMatchObject({ ok: false, message: expect.stringMatching(/^ping failed: /) });
    client.detach();
    await client.ping(1_000);
    expect(client.pinging).toBe(false);
  });
});

describe("tools list_changed", () => {
  it("refreshes the tools list and says so in the console", async () => {
    const server = toolServer();
    const { bench } = await benchOn(server);
    expect(bench.tools.map((t) => t.name)).not.toContain("late");
    for (const name of ["late", "later", "latest"]) server.registerTool(name, { description: "added after connect" }, async () => ({ content: [] }));
    await expect.poll(() => bench.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["late", "later", "latest"]));
    // Three notifications in a burst: one note, and the refreshes do not overlap.
    const notes = bench.consoleLines.filter((l) => l.type === "note" && l.text.includes("list_changed"));
    expect(notes).toEqual([{ type: "note", text: "The server says its tools changed (notifications/tools/list_changed); refreshing the list." }]);
  });
});
