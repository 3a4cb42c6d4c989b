import { describe, expect, it } from "vitest";
import { manualClock, sequentialIds } from "../env/defaults.ts";
import { WireLog } from "../wire/wire-log.ts";
import { correlationOf, exchangeKey, FrameRecorder, isResponse, originOf } from "./frame-recorder.ts";

function recorder() {
  const clock = manualClock();
  const log = new WireLog(clock, 100);
  return { clock, log, frames: new FrameRecorder(log, clock, sequentialIds("n"), () => "stdio:srv") };
}

const rpc = (message: object) => JSON.stringify({ jsonrpc: "2.0", ...message });

describe("FrameRecorder", () => {
  it("keeps the client's and the server's request 0 apart, each answer timed from its own request", () => {
    const { clock, log, frames } = recorder();
    // A recorded exchange: the client's ping 0 is still pending when the server asks its own request 0.
    frames.out(rpc({ id: 0, method: "ping" }));
    clock.advance(3);
    frames.in(rpc({ id: 0, method: "elicitation/create", params: { message: "Name?", requestedSchema: { type: "object", properties: {} } } }));
    clock.advance(40);
    frames.out(rpc({ id: 0, result: { action: "decline" } }));
    clock.advance(2);
    frames.in(rpc({ id: 0, result: {} }));
    const rows = log.entries().map((e) => [e.direction, e.decoded.method ?? "response", e.correlationId, e.rttMs]);
    expect(rows).toEqual([
      ["out", "ping", "0", undefined],
      ["in", "elicitation/create", "server:0", undefined],
      ["out", "response", "server:0", 40],
      ["in", "response", "0", 45],
    ]);
  });

  it("times the answer to a server request even when the client's request with that id was answered before", () => {
    const { clock, log, frames } = recorder();
    frames.out(rpc({ id: 0, method: "initialize", params: {} }));
    clock.advance(5);
    frames.in(rpc({ id: 0, result: { protocolVersion: "2025-06-18" } }));
    frames.in(rpc({ id: 0, method: "roots/list" }));
    clock.advance(7);
    frames.out(rpc({ id: 0, result: { roots: [] } }));
    clock.advance(1);
    // A second answer to the client's request 0 has nothing left to be timed against.
    frames.in(rpc({ id: 0, result: {} }));
    expect(log.entries().map((e) => [e.correlationId, e.rttMs])).toEqual([
      ["0", undefined],
      ["0", 5],
      ["server:0", undefined],
      ["server:0", 7],
      ["0", undefined],
    ]);
  });

  it("gives frames without an id a fresh correlation id, and records them verbatim", () => {
    const { log, frames } = recorder();
    expect(frames.out("not json at all")).toBeUndefined();
    expect(frames.in(rpc({ method: "notifications/message", params: { level: "info", data: "x" } }), { status: 200, note: "stderr" })).toMatchObject({ method: "notifications/message" });
    frames.in(rpc({ id: null, error: { code: -32700, message: "Parse error" } }));
    const [garbage, note, parseError] = log.entries();
    expect(new TextDecoder().decode(garbage!.bytes)).toBe("not json at all");
    expect([garbage!.correlationId, note!.correlationId, parseError!.correlationId]).toEqual(["n-1", "n-2", "n-3"]);
    expect(note).toMatchObject({ status: 200, note: "stderr" });
  });

  it("treats an id-bearing message without a method as a request when it carries no result or error", () => {
    const { clock, log, frames } = recorder();
    frames.out(rpc({ id: 5 }));
    clock.advance(9);
    frames.in(rpc({ id: 5, error: { code: -32600, message: "Invalid Request" } }));
    expect(log.entries().map((e) => [e.correlationId, e.rttMs])).toEqual([
      ["5", undefined],
      ["5", 9],
    ]);
  });

  it("correlates a batch by its first id", () => {
    const { clock, log, frames } = recorder();
    frames.out(JSON.stringify([{ jsonrpc: "2.0", method: "notifications/initialized" }, { jsonrpc: "2.0", id: "a", method: "ping" }]));
    clock.advance(4);
    frames.in(JSON.stringify([{ jsonrpc: "2.0", id: "a", result: {} }]));
    expect(log.entries().map((e) => [e.correlationId, e.rttMs])).toEqual([
      ["a", undefined],
      ["a", 4],
    ]);
  });

  it("forgets the oldest unanswered requests past its bound", () => {
    const { clock, log, frames } = recorder();
    for (let i = 0; i <= 10_000; i++) frames.out(rpc({ id: i, method: "ping" }));
    clock.advance(1);
    frames.in(rpc({ id: 0, result: {} }));
    frames.in(rpc({ id: 10_000, result: {} }));
    expect(log.entries().slice(-2).map((e) => e.rttMs)).toEqual([undefined, 1]);
  });
});

describe("exchange keys", () => {
  it("never lets a client id pose as a server key", () => {
    expect(exchangeKey("client", "7")).toBe("7");
    expect(exchangeKey("server", "7")).toBe("server:7");
    expect(exchangeKey("client", "server:7")).toBe("client:server:7");
    expect(exchangeKey("client", "client:x")).toBe("client:client:x");
  });

  it("names the origin of a request from its direction, and of a response from the opposite one", () => {
    expect([originOf("out", false), originOf("in", true), originOf("in", false), originOf("out", true)]).toEqual(["client", "client", "server", "server"]);
    expect([isResponse({ id: 1, result: {} }), isResponse({ id: 1, method: "x" }), isResponse({ id: 1 }), isResponse([{ id: 1, error: {} }])]).toEqual([true, false, false, true]);
    expect([correlationOf({ id: 3 }), correlationOf({ id: null }), correlationOf([{ method: "a" }, { id: "b" }]), correlationOf("x")]).toEqual(["3", undefined, "b", undefined]);
  });
});
