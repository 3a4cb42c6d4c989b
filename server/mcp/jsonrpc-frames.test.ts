import { describe, expect, it } from "vitest";
import { nameRequests, Outstanding, readIncoming, readOutgoing } from "./jsonrpc-frames.ts";
import { parseLimits } from "../relay/relay-limits.ts";

const out = (value: unknown) => readOutgoing(Buffer.from(typeof value === "string" ? value : JSON.stringify(value)));

describe("reading frames for the relay's books", () => {
  it("finds the requests a frame asks, in a batch too, and which are initialize", () => {
    expect(out({ jsonrpc: "2.0", id: 1, method: "initialize" })).toEqual({ requestIds: [1], initializeIds: [1], listenIds: [] });
    expect(out([{ id: "a", method: "ping" }, { method: "notifications/x" }, { id: 2, result: {} }, { id: 3, method: "tools/list" }])).toEqual({
      requestIds: ["a", 3],
      initializeIds: [],
      listenIds: [],
    });
    expect(out({ jsonrpc: "2.0", id: "listen:1", method: "subscriptions/listen", params: {} })).toEqual({ requestIds: ["listen:1"], initializeIds: [], listenIds: ["listen:1"] });
  });

  it("finds nothing in invalid text, notifications, or requests with unusable ids", () => {
    for (const text of ["{not json", '"str"', "[]", '{"method":"x"}', '{"id":null,"method":"x"}', '{"id":{},"method":"x"}']) {
      expect(out(text)).toEqual({ requestIds: [], initializeIds: [], listenIds: [] });
    }
  });

  it("finds what a frame answers, the version of an initialize result, and whether it is JSON-RPC at all", () => {
    const got = readIncoming(JSON.stringify([{ jsonrpc: "2.0", id: 1, result: { protocolVersion: "2025-06-18" } }, { jsonrpc: "2.0", id: "2", error: { code: 1, message: "m" } }]));
    expect(got.answered).toEqual([1, "2"]);
    expect([...got.versions]).toEqual([["n1", "2025-06-18"]]);
    expect(readIncoming('{"jsonrpc":"2.0","method":"notifications/x"}')).toMatchObject({ jsonRpc: true, answered: [] });
    expect(readIncoming("<html>").jsonRpc).toBe(false);
    expect(readIncoming('{"error":"nope"}').jsonRpc).toBe(false);
  });

  it("tells the number 1 from the string \"1\" when striking answers", () => {
    const left = new Outstanding([1, "1", 2]);
    left.answer(["1", 2]);
    expect(left.take()).toEqual([1]);
    expect(left.take()).toEqual([]);
  });

  it("names requests briefly", () => {
    expect(nameRequests([7])).toBe("request 7");
    expect(nameRequests(["a", 2])).toBe('requests "a", 2');
    expect(nameRequests([1, 2, 3, 4, 5, 6, 7])).toBe("requests 1, 2, 3, 4, 5 and 2 more");
  });
});

describe("session limits", () => {
  it("fills in defaults and keeps what is given", () => {
    expect(parseLimits(undefined)).toEqual({ headersTimeoutMs: 120_000, idleTimeoutMs: 120_000, maxMessageBytes: 16 * 1024 * 1024 });
    expect(parseLimits({ idleTimeoutMs: 5000 })).toMatchObject({ idleTimeoutMs: 5000, headersTimeoutMs: 120_000 });
  });

  it.each([
    [[], /must be an object/],
    [{ idleTimeoutMs: "5" }, /limits\.idleTimeoutMs must be a whole number from 100 to 300000/],
    [{ maxMessageBytes: 1023 }, /from 1024 to 67108864/],
    [{ headersTimeoutMs: Number.NaN }, /whole number/],
    [{ speed: 1 }, /unexpected property limits\.speed/],
  ])("refuses %j", (value, message) => {
    expect(() => parseLimits(value)).toThrow(message);
  });
});
