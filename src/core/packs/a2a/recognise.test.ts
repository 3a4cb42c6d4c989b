import { describe, expect, it } from "vitest";
import type { Candidate } from "../../validation/types.ts";
import { UNPINNED, type MethodEntry, type Pinning } from "./catalog.ts";
import { A2A_V01, A2A_V02, A2A_V03, A2A_V10 } from "./index.ts";
import { recognise } from "./recognise.ts";

const none = new Map<unknown, MethodEntry>();

function top(value: unknown, pin: Pinning = UNPINNED, pending: ReadonlyMap<unknown, MethodEntry> = none): Candidate[] {
  return [...recognise(value, { pin, pending }).candidates].sort((a, b) => b.score - a.score);
}

const names = (candidates: readonly Candidate[]): string[] => candidates.map((c) => `${c.pack.id} ${c.kind.id}`);

describe("A2A recognition of requests", () => {
  it("names the method's packs, newest first, at near-equal scores", () => {
    const found = top({ jsonrpc: "2.0", id: 1, method: "tasks/get", params: { id: "t" } });
    expect(names(found)).toEqual(["a2a/v0.3.0 tasks/get:request", "a2a/v0.2 tasks/get:request", "a2a/v0.1.0 tasks/get:request"]);
    expect(found[0]!.score).toBeCloseTo(0.95);
    expect(found[0]!.score - found[2]!.score).toBeLessThan(0.05);
    expect(found[0]!.evidence.join(" ")).toContain('method is "tasks/get"');
  });

  it("gives way to MCP when tasks/get names the task taskId", () => {
    const found = top({ jsonrpc: "2.0", id: 1, method: "tasks/get", params: { taskId: "t" } });
    expect(found[0]!.score).toBeLessThanOrEqual(0.3);
    expect(found[0]!.evidence.join(" ")).toContain("taskId");
  });

  it("knows each version's own methods", () => {
    expect(names(top({ jsonrpc: "2.0", id: 1, method: "tasks/send", params: {} }))).toEqual(["a2a/v0.1.0 tasks/send:request"]);
    expect(names(top({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: {} }))).toEqual(["a2a/v1.0 SendMessage:request"]);
    expect(names(top({ jsonrpc: "2.0", id: 1, method: "agent/getAuthenticatedExtendedCard" }))).toEqual([
      "a2a/v0.3.0 agent/getAuthenticatedExtendedCard:request",
    ]);
    expect(names(top({ jsonrpc: "2.0", id: 1, method: "message/send", params: {} }))).toEqual([
      "a2a/v0.3.0 message/send:request",
      "a2a/v0.2 message/send:request",
    ]);
  });

  it("puts a pinned version first and the others at least 0.3 behind", () => {
    const found = top({ jsonrpc: "2.0", id: 1, method: "message/send", params: {} }, { pack: A2A_V02, generation: "v0.2+" });
    expect(found[0]!.pack).toBe(A2A_V02);
    expect(found[0]!.score - found[1]!.score).toBeGreaterThanOrEqual(0.3);
    const v01 = top({ jsonrpc: "2.0", id: 1, method: "tasks/get", params: { id: "t" } }, { pack: null, generation: "v0.1" });
    expect(v01[0]!.pack).toBe(A2A_V01);
  });

  it("says why an unknown method is not A2A", () => {
    const recognition = recognise({ jsonrpc: "2.0", id: 1, method: "tools/call" }, { pin: UNPINNED, pending: none });
    expect(recognition.candidates).toEqual([]);
    expect(recognition.reason).toContain('"tools/call"');
    expect(recognise(42, { pin: UNPINNED, pending: none }).reason).toBeDefined();
  });
});

describe("A2A recognition of responses", () => {
  it("follows the request id seen earlier in the batch", () => {
    const pending = new Map<unknown, MethodEntry>([[7, { pack: A2A_V02, spec: { method: "tasks/get", request: "", result: "", streaming: false } }]]);
    expect(names(top({ jsonrpc: "2.0", id: 7, result: { kind: "task" } }, UNPINNED, pending))).toEqual(["a2a/v0.2 tasks/get:result"]);
    expect(names(top({ jsonrpc: "2.0", id: 7, error: { code: -32001, message: "x" } }, UNPINNED, pending))).toEqual(["a2a/v0.2 error"]);
    expect(top({ jsonrpc: "2.0", id: "7", result: {} }, UNPINNED, pending)[0]?.kind.id).not.toBe("tasks/get:result");
  });

  it("names the stream frame of a streaming request by its shape", () => {
    const stream = { method: "message/stream", request: "", result: null, streaming: true };
    const pending = new Map<unknown, MethodEntry>([["s", { pack: A2A_V03, spec: stream }]]);
    const frame = (result: unknown) => top({ jsonrpc: "2.0", id: "s", result }, UNPINNED, pending)[0]!.kind.id;
    expect(frame({ kind: "status-update" })).toBe("stream:status-update");
    expect(frame({ kind: "artifact-update" })).toBe("stream:artifact-update");
    expect(frame({ kind: "task" })).toBe("stream:event");
    const v01 = new Map<unknown, MethodEntry>([[1, { pack: A2A_V01, spec: { ...stream, method: "tasks/sendSubscribe" } }]]);
    expect(top({ jsonrpc: "2.0", id: 1, result: { id: "t", artifact: {} } }, UNPINNED, v01)[0]!.kind.id).toBe("stream:artifact-update");
  });

  it("guesses from the result's shape when the request was not seen", () => {
    const guess = (result: unknown) => names(top({ jsonrpc: "2.0", id: 99, result }))[0];
    expect(guess({ kind: "task", id: "t" })).toBe("a2a/v0.3.0 message/send:result");
    expect(guess({ kind: "status-update" })).toBe("a2a/v0.3.0 stream:status-update");
    expect(guess({ task: { id: "t" } })).toBe("a2a/v1.0 SendMessage:result");
    expect(guess({ statusUpdate: {} })).toBe("a2a/v1.0 stream:event");
    expect(guess({ id: "t", status: { state: "TASK_STATE_WORKING" } })).toBe("a2a/v1.0 GetTask:result");
    expect(guess({ id: "t", status: { state: "working" } })).toBe("a2a/v0.1.0 tasks/send:result");
    expect(guess({ id: "t", status: { state: "working" }, final: false })).toBe("a2a/v0.1.0 stream:status-update");
    expect(guess({ id: "t", status: { state: "working" }, contextId: "c" })).toBe("a2a/v0.3.0 message/send:result");
    expect(guess({ tasks: [] })).toBe("a2a/v1.0 ListTasks:result");
    expect(guess([])).toBe("a2a/v0.3.0 tasks/pushNotificationConfig/list:result");
    expect(guess(null)).toBe("a2a/v0.3.0 tasks/pushNotificationConfig/delete:result");
    expect(guess({ taskId: "t", pushNotificationConfig: {} })).toBe("a2a/v0.3.0 tasks/pushNotificationConfig/set:result");
    expect(guess({ name: "n", skills: [], url: "u" })).toBe("a2a/v0.3.0 agent/getAuthenticatedExtendedCard:result");
    expect(guess("text")).toBeUndefined();
  });

  it("scores an unanswered error by its data and code", () => {
    const v1 = top({ jsonrpc: "2.0", id: 1, error: { code: -32001, message: "m", data: [{}] } });
    expect(v1[0]!.pack).toBe(A2A_V10);
    expect(v1[0]!.score - v1[1]!.score).toBeGreaterThanOrEqual(0.3);
    const a2a = top({ jsonrpc: "2.0", id: 1, error: { code: -32002, message: "m" } });
    expect(a2a).toHaveLength(4);
    expect(a2a[0]!.score).toBeGreaterThan(top({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "m" } })[0]!.score);
  });
});

describe("A2A recognition of cards and bare objects", () => {
  const card = { name: "n", skills: [], version: "1", capabilities: {} };

  it("reads the card's dialect from its markers", () => {
    const dialect = (extra: Record<string, unknown>) => names(top({ ...card, ...extra }))[0];
    expect(dialect({ supportedInterfaces: [] })).toBe("a2a/v1.0 card");
    expect(dialect({ url: "u", protocolVersion: "0.3.0" })).toBe("a2a/v0.3.0 card");
    expect(dialect({ url: "u", protocolVersion: "0.2.5" })).toBe("a2a/v0.2 card");
    expect(dialect({ url: "u", authentication: { schemes: [] } })).toBe("a2a/v0.1.0 card");
    expect(dialect({ url: "u", securitySchemes: {} })).toBe("a2a/v0.2 card:0.2.0-0.2.4");
    const unmarked = top({ ...card, url: "u" });
    expect(names(unmarked)).toEqual(["a2a/v0.3.0 card", "a2a/v0.2 card:0.2.0-0.2.4", "a2a/v0.1.0 card"]);
    expect(unmarked[0]!.score - unmarked[2]!.score).toBeLessThan(0.05);
  });

  it("judges a v0.3 card that also lists supportedInterfaces by the protocolVersion it declares", () => {
    const found = top({ ...card, url: "http://h/", protocolVersion: "0.3.0", supportedInterfaces: [{ url: "http://h/", protocolBinding: "JSONRPC", protocolVersion: "1.0" }] });
    expect(names(found)[0]).toBe("a2a/v0.3.0 card");
    expect(found[0]!.basis).toBe("declared");
    expect(found[0]!.evidence.join(" ")).toContain('protocolVersion is "0.3.0" beside a url');
    expect(names(top({ ...card, supportedInterfaces: [] }))[0]).toBe("a2a/v1.0 card");
  });

  it("still recognises a card without skills, less surely", () => {
    const found = top({ name: "n", url: "u", version: "1", authentication: {} });
    expect(names(found)[0]).toBe("a2a/v0.1.0 card");
    expect(found[0]!.score).toBeLessThan(0.95);
    expect(top({ name: "n", url: "u" })).toEqual([]);
  });

  it("recognises bare tasks, messages and events at lower scores", () => {
    const bare = (value: unknown) => top(value)[0];
    expect(bare({ kind: "task", id: "t" })?.kind.id).toBe("payload:Task");
    expect(bare({ kind: "task", id: "t" })!.score).toBeLessThan(0.7);
    expect(bare({ kind: "status-update" })?.kind.id).toBe("payload:TaskStatusUpdateEvent");
    expect(`${bare({ statusUpdate: {} })?.pack.id} ${bare({ statusUpdate: {} })?.kind.id}`).toBe("a2a/v1.0 payload:StreamResponse");
    expect(bare({ id: "t", status: { state: 3 } })?.pack).toBe(A2A_V10);
    expect(bare({ id: "t", status: { state: "working" } })?.pack).toBe(A2A_V01);
    expect(bare({ role: "ROLE_USER", parts: [] })?.pack).toBe(A2A_V10);
    expect(bare({ role: "user", parts: [] })?.pack).toBe(A2A_V01);
    expect(bare({ role: "user", parts: [], messageId: "m" })?.pack).toBe(A2A_V03);
    expect(bare({ kind: "nonsense" })).toBeUndefined();
  });
});

describe("A2A recognition of hostile member names", () => {
  it("treats prototype names as data", () => {
    expect(top({ kind: "constructor" })).toEqual([]);
    expect(top({ jsonrpc: "2.0", id: 1, method: "toString" })).toEqual([]);
    expect(top(JSON.parse('{"jsonrpc":"2.0","id":1,"result":{"__proto__":{"x":1}}}'))).toEqual([]);
  });
});
