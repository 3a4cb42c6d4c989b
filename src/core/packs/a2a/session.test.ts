import { describe, expect, it } from "vitest";
import type { Candidate } from "../../validation/types.ts";
import { a2aFamily, A2A_V01, A2A_V02, A2A_V03, A2A_V10 } from "./index.ts";

/** Recognises, then observes the top candidate as the engine would when it is valid. */
function feed(session: ReturnType<typeof a2aFamily.createSession>, value: unknown, valid = true): Candidate {
  const top = [...session.recognise(value, {}).candidates].sort((a, b) => b.score - a.score)[0]!;
  session.observe(value, top, valid);
  return top;
}

const card03 = { name: "n", url: "u", protocolVersion: "0.3.0", skills: [], version: "1", capabilities: {} };

describe("A2A family session", () => {
  it("is the A2A family with its four packs, oldest first", () => {
    expect(a2aFamily.family).toBe("a2a");
    expect(a2aFamily.label).toBe("A2A");
    expect(a2aFamily.packs).toEqual([A2A_V01, A2A_V02, A2A_V03, A2A_V10]);
  });

  it("answers a response with the method of its request, then forgets it", () => {
    const session = a2aFamily.createSession();
    feed(session, { jsonrpc: "2.0", id: 3, method: "tasks/cancel", params: { id: "t" } });
    const answer = feed(session, { jsonrpc: "2.0", id: 3, result: { kind: "task" } });
    expect(answer.kind.id).toBe("tasks/cancel:result");
    expect(answer.score).toBeCloseTo(0.95);
    expect(feed(session, { jsonrpc: "2.0", id: 3, result: { kind: "task" } }).kind.id).toBe("message/send:result");
  });

  it("keeps a streaming request open for every frame until an error ends it", () => {
    const session = a2aFamily.createSession();
    feed(session, { jsonrpc: "2.0", id: "s", method: "SendStreamingMessage", params: {} });
    for (let i = 0; i < 3; i += 1) expect(feed(session, { jsonrpc: "2.0", id: "s", result: { statusUpdate: {} } }).score).toBeCloseTo(0.95);
    feed(session, { jsonrpc: "2.0", id: "s", error: { code: -32603, message: "m" } });
    expect(feed(session, { jsonrpc: "2.0", id: "s", result: { statusUpdate: {} } }).score).toBeLessThan(0.95);
  });

  it("pins the version a valid card declares", () => {
    const session = a2aFamily.createSession();
    feed(session, { ...card03, protocolVersion: "0.2.6" });
    expect(feed(session, { jsonrpc: "2.0", id: 1, method: "message/send", params: {} }).pack).toBe(A2A_V02);
    const unpinned = a2aFamily.createSession();
    feed(unpinned, { ...card03, protocolVersion: "0.2.6" }, false);
    expect(feed(unpinned, { jsonrpc: "2.0", id: 1, method: "message/send", params: {} }).pack).toBe(A2A_V03);
  });

  it("pins the dialect of version-specific methods, not of shared ones", () => {
    const session = a2aFamily.createSession();
    feed(session, { jsonrpc: "2.0", id: 1, method: "tasks/get", params: { id: "t" } });
    expect(feed(session, { jsonrpc: "2.0", id: 2, method: "tasks/get", params: { id: "t" } }).pack).toBe(A2A_V03);
    feed(session, { jsonrpc: "2.0", id: 3, method: "tasks/send", params: {} });
    expect(feed(session, { jsonrpc: "2.0", id: 4, method: "tasks/get", params: { id: "t" } }).pack).toBe(A2A_V01);
    feed(session, { jsonrpc: "2.0", id: 5, method: "SendMessage", params: {} });
    expect(feed(session, { jsonrpc: "2.0", id: 6, error: { code: -32001, message: "m" } }).pack).toBe(A2A_V10);
  });

  it("past 50,000 open requests forgets the oldest first, and each further request costs what the first ones did", () => {
    const session = a2aFamily.createSession();
    const request = (i: number) => ({ jsonrpc: "2.0", id: `r${i}`, method: "message/send", params: {} });
    const top = feed(session, request(0));
    const timed = (from: number, to: number): number => {
      const started = performance.now();
      for (let i = from; i < to; i++) session.observe(request(i), top, true);
      return performance.now() - started;
    };
    const filling = timed(1, 20_000);
    timed(20_000, 50_000);
    // Each of these evicts the oldest; finding it must not walk the slots earlier evictions left.
    const evicting = timed(50_000, 70_000);
    expect(evicting).toBeLessThan(filling * 4 + 50);
    // An answer to a remembered request scores as decisive; one to a forgotten request is a guess by shape.
    const answer = (i: number) => feed(session, { jsonrpc: "2.0", id: `r${i}`, result: { kind: "task" } }).score;
    expect(answer(19_999)).toBeLessThan(0.95);
    expect(answer(20_000)).toBeCloseTo(0.95);
    expect(answer(69_999)).toBeCloseTo(0.95);
  });

  it("ignores what other families chose", () => {
    const session = a2aFamily.createSession();
    const foreign = { ...feed(a2aFamily.createSession(), card03), pack: { ...A2A_V03, family: "mcp" as const } };
    session.observe(card03, foreign, true);
    expect(feed(session, { jsonrpc: "2.0", id: 1, method: "message/send", params: {} }).pack).toBe(A2A_V03);
    expect(session.notes?.({ jsonrpc: "2.0", id: 1, error: { code: -32001, message: "m" } }, feed(session, { jsonrpc: "2.0", id: 9, error: { code: -32001, message: "m" } }))).toHaveLength(1);
    expect(session.check({}, feed(session, card03), {}, { validateWithSchema: () => [] })).toEqual([]);
  });
});
