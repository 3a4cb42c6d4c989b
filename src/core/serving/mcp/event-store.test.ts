import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { BoundedEventStore } from "./event-store.ts";

const note = (n: number): JSONRPCMessage => ({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: `m${n}` } });

async function replay(store: BoundedEventStore, after: string): Promise<{ stream: string; sent: string[] }> {
  const sent: string[] = [];
  const stream = await store.replayEventsAfter(after, { send: async (_id, message) => void sent.push(String((message as unknown as { params: { data: string } }).params.data)) });
  return { stream, sent };
}

describe("BoundedEventStore", () => {
  it("replays the events of the same stream after the given id, skipping priming events", async () => {
    const store = new BoundedEventStore();
    const priming = await store.storeEvent("a", {} as JSONRPCMessage);
    await store.storeEvent("a", note(1));
    await store.storeEvent("b", note(2));
    const third = await store.storeEvent("a", note(3));
    expect(await store.getStreamIdForEventId(third)).toBe("a");
    expect(await replay(store, priming)).toEqual({ stream: "a", sent: ["m1", "m3"] });
    expect(await replay(store, third)).toEqual({ stream: "a", sent: [] });
    expect(await store.getStreamIdForEventId("nope")).toBeUndefined();
    await expect(replay(store, "nope")).rejects.toThrow("event nope is unknown or too old to replay");
  });

  it("forgets the oldest events past its count and size bounds", async () => {
    const store = new BoundedEventStore({ maxEvents: 3, maxChars: 1_000_000 });
    const first = await store.storeEvent("a", note(1));
    for (let i = 2; i <= 5; i++) await store.storeEvent("a", note(i));
    expect(store.size).toBe(3);
    expect(await store.getStreamIdForEventId(first)).toBeUndefined();
    const small = new BoundedEventStore({ maxChars: 200 });
    for (let i = 0; i < 10; i++) await small.storeEvent("a", note(i));
    expect(small.size).toBeLessThan(4);
  });
});
