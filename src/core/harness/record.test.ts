import { describe, expect, it } from "vitest";
import { manualClock } from "../env/defaults.ts";
import { promptRequest, toolRequest } from "../fisk/codec/builders.ts";
import { FISK_PROTOCOLS } from "../fisk/codec/protocol-ids.ts";
import { wireJsonlLines } from "../wire/jsonl.ts";
import { parseCollection } from "./collection-codec.ts";
import { collectionFromCapture, DEFAULT_NATS_SERVER, recordCapture, RecordInputError } from "./record.ts";
import { CaptureKit } from "./testing/wire-captures.ts";

const MCP_URL = "http://127.0.0.1:3001/mcp";
const encoder = new TextEncoder();
const stamp = { clock: manualClock(), random: (b: Uint8Array) => b.fill(7), sender: { name: "patchbay" } };

function expectValidCollection(value: unknown): void {
  const parsed = parseCollection(value);
  expect(parsed.ok ? [] : parsed.problems).toEqual([]);
}

function mcpCapture(): CaptureKit {
  const kit = new CaptureKit();
  const s = kit.mcp(MCP_URL);
  s.request(0, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "patchbay", version: "0.1.0" } });
  s.result(0, { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "mcp-servers/everything", version: "2.0.0" } });
  s.notify("notifications/initialized");
  s.request(1, "tools/list");
  s.result(1, { tools: [{ name: "echo", inputSchema: { type: "object" } }], nextCursor: "page-2-cursor" });
  s.request(2, "tools/list", { cursor: "page-2-cursor" });
  s.result(2, { tools: [{ name: "get-sum", inputSchema: { type: "object" } }] });
  s.request(3, "tools/call", { name: "echo", arguments: { message: "hi" } });
  s.result(3, { content: [{ type: "text", text: "Echo: hi" }] });
  s.serverAsks(0, "roots/list");
  s.request(4, "tools/call", { name: "trigger-elicitation-request", arguments: {} });
  s.result(4, { content: [{ type: "text", text: "declined" }], isError: true });
  s.request(5, "tools/call", { name: "nope", arguments: {} });
  s.error(5, -32602, "Unknown tool: nope");
  const stdio = kit.mcp("stdio:npx -y @modelcontextprotocol/server-everything");
  stdio.request(0, "resources/read", { uri: "demo://resource/static/document/architecture.md" });
  stdio.result(0, { contents: [] });
  const relay = kit.mcp("relay:abc");
  relay.request(0, "ping");
  return kit;
}

describe("recording MCP traffic", () => {
  it("makes each client request but the handshake a step, with a URL variable and the recorded outcome", () => {
    const { collection, skipped } = recordCapture(mcpCapture().entries(), { name: "everything" });
    expectValidCollection(collection);
    expect(collection.environments).toEqual({ recorded: { mcpUrl: MCP_URL, mcpCommand: "npx -y @modelcontextprotocol/server-everything" } });
    expect(collection.targets).toEqual({ mcp: { protocol: "mcp", url: "{{mcpUrl}}" }, "mcp-2": { protocol: "mcp", command: "{{mcpCommand}}" } });
    expect(collection.steps.map((s) => [s.name, s.target, s.assert?.[0]])).toEqual([
      ["tools/list", "mcp", { kind: "outcome", is: "result" }],
      ["tools/list 2", "mcp", { kind: "outcome", is: "result" }],
      ["tools/call echo", "mcp", { kind: "outcome", is: "result" }],
      ["tools/call trigger-elicitation-request", "mcp", { kind: "outcome", is: "is-error" }],
      ["tools/call nope", "mcp", { kind: "outcome", is: "json-rpc-error", code: -32602 }],
      ["resources/read demo://resource/static/document/architecture.md", "mcp-2", { kind: "outcome", is: "result" }],
    ]);
    expect(collection.steps.every((s) => s.assert?.[1]?.kind === "valid")).toBe(true);
    expect(collection.steps[2]!.action).toEqual({ protocol: "mcp", method: "tools/call", params: { name: "echo", arguments: { message: "hi" } } });
    expect(skipped.map((s) => s.reason)).toEqual([
      "initialize: a step's session opens itself",
      "notifications/initialized: a notification, not a step",
      "roots/list: asked by the peer, not by Patchbay",
      "the frame names no server Patchbay can reach again (relay:abc)",
    ]);
  });

  it("turns a cursor an earlier answer gave into a captured value", () => {
    const steps = collectionFromCapture(mcpCapture().entries(), { name: "x" }).steps;
    expect(steps[0]!.capture).toEqual({ cursor: "/result/nextCursor" });
    expect(steps[1]!.action).toEqual({ protocol: "mcp", method: "tools/list", params: { cursor: "{{cursor}}" } });
  });

  it("reads an exported capture the same as the entries", () => {
    const entries = mcpCapture().entries();
    const text = [...wireJsonlLines(entries, { capacity: 100, dropped: 0, exportedAt: 0 })].join("");
    expect(collectionFromCapture(text, { name: "x" })).toEqual(collectionFromCapture(entries, { name: "x" }));
  });
});

const CARD_V03 = {
  protocolVersion: "0.3.0",
  name: "Echo Agent",
  description: "Echoes",
  url: "http://127.0.0.1:10000/a2a/jsonrpc",
  preferredTransport: "JSONRPC",
  additionalInterfaces: [{ url: "http://127.0.0.1:10000/a2a/rest", transport: "HTTP+JSON" }],
  version: "1.0.0",
  capabilities: { streaming: true },
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["text/plain"],
  skills: [{ id: "echo", name: "Echo", description: "Echoes", tags: [] }],
};

async function a2aCapture(): Promise<CaptureKit> {
  const kit = new CaptureKit();
  await kit.card("http://127.0.0.1:10000", CARD_V03);
  const rpc = { url: "http://127.0.0.1:10000/a2a/jsonrpc", dialect: "0.3" as const, binding: "jsonrpc" as const };
  const task = { kind: "task", id: "task-123456", contextId: "ctx-987654", status: { state: "input-required" } };
  await kit.a2a({ ...rpc, operation: "send", input: { message: { messageId: "m1", parts: [{ kind: "text", text: "hello agent" }] } }, answer: JSON.stringify({ jsonrpc: "2.0", id: "1", result: task }), rpcId: "1" });
  await kit.a2a({ ...rpc, operation: "get", input: { taskId: "task-123456" }, answer: JSON.stringify({ jsonrpc: "2.0", id: "2", result: { ...task, status: { state: "completed" } } }), rpcId: "2" });
  await kit.a2a({ ...rpc, operation: "cancel", input: { taskId: "task-123456" }, answer: JSON.stringify({ jsonrpc: "2.0", id: "3", error: { code: -32002, message: "Task cannot be canceled" } }), rpcId: "3" });
  await kit.a2a({ url: "http://127.0.0.1:10000/a2a/rest", dialect: "0.3", binding: "rest", operation: "send", input: { message: { messageId: "m2", parts: [{ kind: "text", text: "again" }], contextId: "ctx-987654" } }, answer: JSON.stringify({ kind: "message", messageId: "r", role: "agent", parts: [{ kind: "text", text: "ok" }] }) });
  await kit.a2a({ url: "http://127.0.0.1:10000/a2a/rest", dialect: "0.3", binding: "rest", operation: "get", input: { taskId: "task-123456" }, answer: JSON.stringify({ ...task, status: { state: "failed" } }) });
  const data = { kind: "data" as const, data: { city: "Oslo" } };
  await kit.a2a({ ...rpc, operation: "send", input: { message: { messageId: "m4", parts: [{ kind: "text", text: "weather" }, data] } }, answer: JSON.stringify({ jsonrpc: "2.0", id: "4", result: { kind: "message", messageId: "r2", role: "agent", parts: [] } }), rpcId: "4" });
  await kit.a2a({ url: "http://127.0.0.1:20000/", dialect: "1.0", binding: "jsonrpc", operation: "send", input: { message: { messageId: "m3", parts: [{ kind: "text", text: "hi v1" }] } }, answer: JSON.stringify({ jsonrpc: "2.0", id: "1", result: { message: { messageId: "r", role: "ROLE_AGENT", parts: [{ text: "hello" }] } } }) });
  return kit;
}

describe("recording A2A traffic", () => {
  it("reads operations of each binding and dialect, with the card the capture fetched as the target", async () => {
    const { collection, skipped, notes } = recordCapture((await a2aCapture()).entries(), { name: "agent" });
    expectValidCollection(collection);
    expect(collection.targets).toEqual({
      a2a: { protocol: "a2a", card: "{{a2aUrl}}", binding: "jsonrpc", dialect: "0.3" },
      "a2a-2": { protocol: "a2a", card: "{{a2aUrl}}", binding: "rest", dialect: "0.3" },
      "a2a-3": { protocol: "a2a", card: "{{a2aUrl2}}", binding: "jsonrpc", dialect: "1.0" },
    });
    expect(collection.environments.recorded).toEqual({ a2aUrl: "http://127.0.0.1:10000", a2aUrl2: "http://127.0.0.1:20000" });
    expect(collection.steps.map((s) => [s.name, s.target, s.assert?.[0]])).toEqual([
      ["send", "a2a", { kind: "outcome", is: "task-state", state: "input-required" }],
      ["get", "a2a", { kind: "outcome", is: "result" }],
      ["cancel", "a2a", { kind: "outcome", is: "json-rpc-error", code: -32002 }],
      ["send 2", "a2a-2", { kind: "outcome", is: "result" }],
      ["get 2", "a2a-2", { kind: "outcome", is: "task-state", state: "failed" }],
      ["send 3", "a2a", { kind: "outcome", is: "result" }],
      ["send 4", "a2a-3", { kind: "outcome", is: "result" }],
    ]);
    expect(skipped.map((s) => s.reason)).toEqual(["the Agent Card fetch: a target reads its card itself"]);
    expect(notes).toContain("no Agent Card fetch for http://127.0.0.1:20000 in the capture: its card is looked for at http://127.0.0.1:20000");
  });

  it("keeps a text message as text, a richer one whole, and links task and context ids to the answer that gave them", async () => {
    const steps = collectionFromCapture((await a2aCapture()).entries(), { name: "agent" }).steps;
    expect(steps[0]!.action).toEqual({ protocol: "a2a", operation: "send", text: "hello agent" });
    expect(steps[0]!.capture).toEqual({ taskId: "/id", contextId: "/contextId" });
    expect(steps[1]!.action).toEqual({ protocol: "a2a", operation: "get", taskId: "{{taskId}}" });
    expect(steps[2]!.action).toEqual({ protocol: "a2a", operation: "cancel", taskId: "{{taskId}}" });
    // HTTP+JSON v0.3 carries the parts as proto JSON `content`; a lone text part is still text.
    expect(steps[3]!.action).toEqual({ protocol: "a2a", operation: "send", text: "again", contextId: "{{contextId}}" });
    expect(steps[4]!.action).toEqual({ protocol: "a2a", operation: "get", taskId: "{{taskId}}" });
    expect(steps[5]!.action).toEqual({ protocol: "a2a", operation: "send", message: { role: "user", parts: [{ kind: "text", text: "weather" }, { kind: "data", data: { city: "Oslo" } }], kind: "message" } });
    expect(steps[6]!.action).toEqual({ protocol: "a2a", operation: "send", text: "hi v1" });
  });
});

describe("recording NATS traffic", () => {
  async function natsCapture(): Promise<CaptureKit> {
    const kit = new CaptureKit();
    const nats = kit.nats();
    const tool = toolRequest("disk_usage", { path: "/var" }, stamp);
    const ack = { protocol: FISK_PROTOCOLS.ack, accepted: true, sequence: 1 };
    nats.replySet("choria.fisk-ai.tool.demo", tool, [ack, { protocol: FISK_PROTOCOLS.toolReply, sequence: 2, output: "du: denied", exec: { command: "du /var", exit_code: 2 } }]);
    nats.replySet("choria.fisk-ai.tool.demo", toolRequest("uptime", null, stamp), [{ protocol: FISK_PROTOCOLS.toolReply, sequence: 0, code: "capacity", is_error: true, output: "busy" }]);
    nats.replySet("choria.fisk-ai.task.demo", promptRequest({ prompt: "say hi" }, stamp), [ack, { protocol: FISK_PROTOCOLS.result, sequence: 2, stop_reason: "end_turn", text: "hi" }]);
    await nats.request("demo.echo", '{"hello":"nats"}', () => ({ subject: "_INBOX.1", data: encoder.encode('{"hello":"nats"}') }), { "X-Trace": ["a", "b"] });
    await nats.request("demo.gone", "{}", () => ({ subject: "_INBOX.2", data: new Uint8Array(0), status: { code: 503, description: "no responders" } }));
    nats.port.publish("demo.events", encoder.encode("fire and forget"));
    return kit;
  }

  it("makes fisk-ai tool calls and tasks steps by identity, plain requests request steps, with the recorded outcome", async () => {
    const { collection, skipped, notes } = recordCapture((await natsCapture()).entries(), { name: "fisk" });
    expectValidCollection(collection);
    expect(collection.targets).toEqual({ nats: { protocol: "nats", server: "{{natsServer}}" } });
    expect(collection.environments.recorded).toEqual({ natsServer: DEFAULT_NATS_SERVER });
    expect(collection.steps.map((s) => [s.name, s.action, s.assert?.[0]])).toEqual([
      ["tool demo disk_usage", { protocol: "nats", kind: "tool", identity: "demo", tool: "disk_usage", input: { path: "/var" } }, { kind: "outcome", is: "exit-code", code: 2 }],
      ["tool demo uptime", { protocol: "nats", kind: "tool", identity: "demo", tool: "uptime" }, { kind: "outcome", is: "capacity-refusal" }],
      ["task demo", { protocol: "nats", kind: "task", identity: "demo", text: "say hi" }, { kind: "outcome", is: "result" }],
      ["request demo.echo", { protocol: "nats", kind: "request", subject: "demo.echo", payload: '{"hello":"nats"}', headers: { "X-Trace": "a, b" } }, { kind: "outcome", is: "result" }],
      ["request demo.gone", { protocol: "nats", kind: "request", subject: "demo.gone", payload: "{}" }, { kind: "outcome", is: "no-responders" }],
    ]);
    expect(skipped.map((s) => s.reason)).toEqual(["a publish that got no reply, not a request"]);
    expect(notes).toEqual([`the capture does not say which NATS server it used: natsServer is ${DEFAULT_NATS_SERVER}; change it in environment "recorded"`]);
  });

  it("uses the NATS server it is given", async () => {
    const { collection, notes } = recordCapture((await natsCapture()).entries(), { name: "fisk", natsServer: "nats://broker:4222" });
    expect(collection.environments.recorded).toEqual({ natsServer: "nats://broker:4222" });
    expect(notes).toEqual([]);
  });
});

describe("recording bad input", () => {
  it("refuses a missing name and what is no capture, saying which", () => {
    expect(() => recordCapture([], { name: " " })).toThrow(RecordInputError);
    expect(() => recordCapture({ entries: [] }, { name: "x" })).toThrow(/capture: expected wire entries or a wire log export, got an object/);
    expect(() => recordCapture("{}", { name: "x" })).toThrow(/not a Patchbay wire log/);
  });

  it("notes entries that are not wire entries, skips payloads that are not text, and still records the rest", async () => {
    const kit = new CaptureKit();
    const nats = kit.nats();
    nats.scripted.onRequest = () => ({ subject: "_INBOX.3", data: encoder.encode("{}") });
    await nats.port.request("bin.svc", new Uint8Array([0xff, 0xfe, 0x00]), { timeoutMs: 100 });
    await nats.request("ok.svc", "{}", () => ({ subject: "_INBOX.4", data: encoder.encode("{}") }));
    const r = recordCapture([42, ...kit.entries()], { name: "x" });
    expect(r.notes[0]).toBe("capture[0]: not a wire entry (channel, direction, bytes, decoded); left out");
    expect(r.skipped.map((s) => s.reason)).toEqual(["the payload is not UTF-8 text, which a request step carries"]);
    expect(r.collection.steps.map((s) => s.name)).toEqual(["request ok.svc"]);
  });

  it("records an empty capture as an empty, valid collection", () => {
    const c = collectionFromCapture([], { name: "empty" });
    expect(c.steps).toEqual([]);
    expectValidCollection(c);
  });
});
