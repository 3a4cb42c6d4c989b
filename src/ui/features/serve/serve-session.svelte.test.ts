import { describe, expect, it } from "vitest";
import { BackendError } from "../../../core/backend/backend-client.ts";
import { ManualScheduler, manualClock, sequentialIds } from "../../../core/env/index.ts";
import { WireLog } from "../../../core/wire/index.ts";
import { FakeServeApi, memoryStore, settle } from "./serve-fakes.ts";
import { serveSession, ServeSession } from "./serve-session.svelte.ts";

function setup() {
  const api = new FakeServeApi();
  const scheduler = new ManualScheduler();
  const wireLog = new WireLog(manualClock());
  const deps = { api, storage: memoryStore(), wireLog, clock: manualClock(), ids: sequentialIds(), scheduler };
  return { api, scheduler, wireLog, deps, session: new ServeSession(deps) };
}

describe("ServeSession", () => {
  it("follows the served traffic into the wire log once a surface starts, and stops after it stops", async () => {
    const { api, scheduler, wireLog, session } = setup();
    api.mcpPages = [{ frames: [{ seq: 1, at: 1, direction: "in", session: "s", text: '{"jsonrpc":"2.0","id":1,"method":"tools/call"}' }], next: 1, dropped: 0 }];
    await session.mcp.start(session.kit);
    await settle();
    expect(wireLog.entries()[0]).toMatchObject({ target: "served mcp", correlationId: "s/1" });
    await session.mcp.stop();
    scheduler.advance(1000);
    await settle();
    expect(session.traffic.active).toBe(false);
  });

  it("writes snippets for what runs: the URL, the NATS subjects, and stdio for the saved toolkit", async () => {
    const { api, session } = setup();
    expect(session.snippetList).toEqual([]);
    await session.mcp.start(session.kit);
    await session.nats.start(session.kit);
    const titles = () => session.snippetList.map((s) => s.title);
    expect(titles()).toEqual(["Claude Code, Streamable HTTP", "MCP Inspector", "VS Code / Cursor (mcp.json)", "fisk-ai remote_tools entry", "NATS subjects"]);
    expect(session.snippetList[1]?.text).toContain("URL: http://127.0.0.1:40001/mcp");
    session.kit.saveName = "kit";
    await session.kit.save();
    await session.snippets.load(session.kit.savedAs);
    expect(api.named("info")).toEqual([["kit"]]);
    expect(titles()[0]).toBe("Claude Desktop (claude_desktop_config.json)");
    expect(JSON.parse(session.snippetList[0]?.text ?? "")).toEqual({ mcpServers: { "patchbay-demo": api.infoAnswer.stdio } });
    expect(session.snippetList[1]?.text).toBe("claude mcp add patchbay-demo -- node /app/bin/patchbay.mjs serve --stdio /ws/toolkits/kit.json");
    await session.snippets.load("kit");
    expect(api.named("info")).toHaveLength(1); // already known
  });

  it("while A2A runs: its card, the call command, a curl message/send to echo, the A2A Inspector; its frames reach the log", async () => {
    const { api, wireLog, session } = setup();
    api.a2aPages = [{ frames: [{ seq: 1, at: 1, direction: "in", binding: "jsonrpc", method: "POST", path: "/a2a/jsonrpc", text: '{"jsonrpc":"2.0","id":5,"method":"message/send"}' }], next: 1, dropped: 0 }];
    await session.a2a.start(session.kit);
    await settle();
    expect(wireLog.entries()[0]).toMatchObject({ channel: "a2a-http", correlationId: "served-a2a/5" });
    // With nothing saved, the backend is still asked how Patchbay runs here, for the call command.
    await session.snippets.load(null);
    expect(api.named("info")).toEqual([[undefined]]);
    const titles = session.snippetList.map((s) => s.title);
    expect(titles).toEqual(["A2A Agent Card", "Patchbay, call a2a", "curl, JSON-RPC message/send (v0.3)", "A2A Inspector"]);
    expect(session.snippetList[1]?.text).toBe("node /app/bin/patchbay.mjs call a2a http://127.0.0.1:40002/.well-known/agent-card.json hello");
    await session.snippets.load(null);
    expect(api.named("info")).toHaveLength(1);
    const curl = session.snippetList[2]?.text ?? "";
    expect(curl).toContain("http://127.0.0.1:40002/a2a/jsonrpc");
    expect(curl).toContain('"data":{"skill":"echo","arguments":{"message":"hello"}}');
    // The editor's echo no longer takes one text argument: the example sends text instead.
    session.kit.text = session.kit.text.replace('"name": "echo"', '"name": "echo2"');
    expect(session.snippetList[2]?.text).toContain('{"kind":"text","text":"hello"}');
    await session.a2a.stop();
    expect(session.snippetList).toEqual([]);
  });

  it("says why the stdio snippets are missing when the backend cannot give the command", async () => {
    const { api, session } = setup();
    api.fail.info = new BackendError(404, "not_found", "no saved toolkit named kit");
    await session.snippets.load("kit");
    expect(session.snippets.error).toBe('No stdio snippets for "kit": no saved toolkit named kit.');
    await session.snippets.load(null);
    expect(session.snippets.error).toBeNull();
  });

  it("reads every surface's status every two seconds while watched", async () => {
    const { api, scheduler, session } = setup();
    const stop = session.watchStatus();
    await settle();
    scheduler.advance(2000);
    await settle();
    expect(api.named("mcpStatus")).toHaveLength(2);
    expect(api.named("natsStatus")).toHaveLength(2);
    expect(api.named("a2aStatus")).toHaveLength(2);
    stop();
    scheduler.advance(10_000);
    await settle();
    expect(api.named("mcpStatus")).toHaveLength(2);
  });

  it("is one per owner, kept while the workbench comes and goes", () => {
    const { deps } = setup();
    const owner = {};
    const first = serveSession(owner, () => deps);
    first.kit.text = "{ edited";
    expect(serveSession(owner, () => deps)).toBe(first);
    expect(serveSession(owner, () => deps).kit.text).toBe("{ edited");
    expect(serveSession({}, () => deps)).not.toBe(first);
  });
});
