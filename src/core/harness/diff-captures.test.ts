import { describe, expect, it } from "vitest";
import { wireJsonlLines } from "../wire/jsonl.ts";
import type { WireEntry } from "../wire/wire-entry.ts";
import { diffCaptures } from "./diff-captures.ts";
import { DiffInputError } from "./diff-json.ts";
import { CaptureKit } from "./testing/wire-captures.ts";

const URL_MCP = "http://127.0.0.1:3001/mcp";
const encoder = new TextEncoder();

/** An MCP session against server-everything: handshake, tools/list, echo; ids start at `first`. */
function mcpSession(kit: CaptureKit, first: number, echoed: string, extra = false): void {
  const s = kit.mcp(URL_MCP);
  s.request(first, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "patchbay", version: "0.1.0" } });
  s.result(first, { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "mcp-servers/everything", version: "2.0.0" } });
  s.notify("notifications/initialized");
  s.request(first + 1, "tools/list");
  s.result(first + 1, { tools: [{ name: "echo", inputSchema: { type: "object" } }] });
  s.request(first + 2, "tools/call", { name: "echo", arguments: { message: "hi" } });
  s.result(first + 2, { content: [{ type: "text", text: echoed }] }, 9);
  if (extra) {
    s.request(first + 3, "tools/call", { name: "get-sum", arguments: { a: 1, b: 2 } });
    s.result(first + 3, { content: [{ type: "text", text: "3" }] });
  }
}

async function a2aTaskGet(kit: CaptureKit, taskId: string, state: string): Promise<void> {
  await kit.a2a({
    url: "http://127.0.0.1:10000/rest",
    dialect: "0.3",
    binding: "rest",
    operation: "get",
    input: { taskId },
    answer: JSON.stringify({ kind: "task", id: taskId, contextId: `ctx-${taskId}`, status: { state, timestamp: new Date(kit.clock.wallNow()).toISOString() } }),
  });
}

async function capture(options: { first: number; echoed: string; extra?: boolean; taskId: string; state: string; clockAhead?: number }): Promise<WireEntry[]> {
  const kit = new CaptureKit();
  kit.clock.advance(options.clockAhead ?? 0);
  mcpSession(kit, options.first, options.echoed, options.extra);
  await a2aTaskGet(kit, options.taskId, options.state);
  const nats = kit.nats();
  await nats.request("demo.echo", '{"hello":"nats"}', () => ({ subject: "_INBOX.x", data: encoder.encode('{"hello":"nats","at":1}') }));
  return kit.entries();
}

describe("diffCaptures", () => {
  it("finds two runs of the same traffic the same, though ids, task ids and times differ", async () => {
    const a = await capture({ first: 0, echoed: "Echo: hi", taskId: "t-1", state: "completed" });
    const b = await capture({ first: 40, echoed: "Echo: hi", taskId: "t-2", state: "completed", clockAhead: 5000 });
    const d = diffCaptures(a, b);
    expect(d.changed).toEqual([]);
    expect(d.onlyBefore).toEqual([]);
    expect(d.onlyAfter).toEqual([]);
    // initialize, notifications/initialized, tools/list, tools/call, GET tasks/{id}, demo.echo
    expect(d.same).toBe(6);
  });

  it("shows a changed answer at its pointer, and the exchanges only one capture has", async () => {
    const a = await capture({ first: 0, echoed: "Echo: hi", taskId: "t-1", state: "completed" });
    const b = await capture({ first: 0, echoed: "Echo: ho", extra: true, taskId: "t-1", state: "failed" });
    const d = diffCaptures(a, b);
    expect(d.changed.map((c) => [c.channel, c.method, c.response.map((x) => x.text)])).toEqual([
      ["mcp", "tools/call", ['changed at /result/content/0/text: "Echo: hi" → "Echo: ho"']],
      ["a2a-http", "GET /rest/v1/tasks/{id}", ['changed at /status/state: "completed" → "failed"']],
    ]);
    expect(d.onlyAfter.map((r) => r.method)).toEqual(["tools/call"]);
    expect(d.onlyAfter[0]!.responseSeqs).toHaveLength(1);
  });

  it("compares ids and times too when asked", async () => {
    const a = await capture({ first: 0, echoed: "Echo: hi", taskId: "t-1", state: "completed" });
    const b = await capture({ first: 40, echoed: "Echo: hi", taskId: "t-1", state: "completed" });
    const d = diffCaptures(a, b, { ignoreIdsAndTimes: false });
    const tools = d.changed.find((c) => c.method === "tools/list")!;
    expect(tools.request.map((c) => c.text)).toEqual(["changed at /id: 1 → 41"]);
    expect(tools.response.map((c) => c.pointer)).toEqual(["/id"]);
  });

  it("skips members named in ignoreKeys", async () => {
    const a = await capture({ first: 0, echoed: "Echo: hi", taskId: "t-1", state: "completed" });
    const b = await capture({ first: 0, echoed: "Echo: ho", taskId: "t-1", state: "completed" });
    expect(diffCaptures(a, b, { ignoreKeys: ["text"] }).changed).toEqual([]);
  });

  it("reads wire log exports as text, and reports what it could not import", async () => {
    const a = await capture({ first: 0, echoed: "Echo: hi", taskId: "t-1", state: "completed" });
    const text = [...wireJsonlLines(a, { capacity: 100, dropped: 0, exportedAt: 0 })].join("") + '{"seq":"bad"}\n';
    const d = diffCaptures(text, a);
    expect(d.changed).toEqual([]);
    expect(d.same).toBe(6);
    expect(d.problems[0]).toMatch(/^before line 1: the header announces/);
    expect(d.problems[1]).toMatch(/"seq" must be a positive integer/);
  });

  it("pairs NATS replies by subject and shows a changed status", async () => {
    const kit = (status?: number) => {
      const k = new CaptureKit();
      return { k, run: () => k.nats().request("svc.ping", "{}", () => ({ subject: "_INBOX.y", data: encoder.encode(status ? "" : "{}"), ...(status ? { status: { code: status, description: "no responders" } } : {}) })) };
    };
    const ok = kit();
    await ok.run();
    const down = kit(503);
    await down.run();
    const d = diffCaptures(ok.k.entries(), down.k.entries());
    expect(d.changed).toHaveLength(1);
    expect(d.changed[0]!.status).toEqual({ before: [null], after: [503] });
  });

  it("refuses what is no capture, naming the side, and leaves out entries that are not wire entries", () => {
    expect(() => diffCaptures({}, [])).toThrow(DiffInputError);
    expect(() => diffCaptures([], "not a wire log")).toThrow(/after: line 1: not a Patchbay wire log/);
    const d = diffCaptures([null, { channel: "mcp" }], []);
    expect(d.problems).toEqual(["before[0]: not a wire entry (channel, direction, bytes, decoded); left out", "before[1]: not a wire entry (channel, direction, bytes, decoded); left out"]);
  });
});
