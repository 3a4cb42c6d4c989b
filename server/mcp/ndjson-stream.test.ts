import { describe, expect, it } from "vitest";
import { parseRelayEvent } from "../../src/core/mcp/relay-api.ts";
import { createEventStream, type StreamSink } from "./ndjson-stream.ts";

function sink(accept = true): StreamSink & { chunks: string[]; ended: boolean; drain(): void } {
  let onDrain: (() => void) | undefined;
  const s = {
    chunks: [] as string[],
    ended: false,
    accept,
    write(chunk: string) {
      s.chunks.push(chunk);
      return s.accept;
    },
    end() {
      s.ended = true;
    },
    once(_event: "drain", listener: () => void) {
      onDrain = listener;
    },
    drain() {
      s.accept = true;
      onDrain?.();
    },
  };
  return s;
}

const lines = (chunks: string[]) => chunks.join("").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

describe("the relay event stream", () => {
  it("buffers until a reader comes, then delivers in order and ends after closed", async () => {
    const stream = createEventStream({ elapsed: () => 5 });
    stream.push({ type: "stderr", text: "a" });
    stream.push({ type: "message", text: "{}" });
    stream.push({ type: "closed", reason: "done", code: 0 });
    const s = sink();
    stream.claim()!.start(s);
    expect(lines(s.chunks)).toEqual([
      { type: "stderr", text: "a", at: 5 },
      { type: "message", text: "{}", at: 5 },
      { type: "closed", reason: "done", code: 0, at: 5 },
    ]);
    expect(s.ended).toBe(true);
    await stream.delivered;
  });

  it("has one reader at a time; a released claim can be taken again", () => {
    const stream = createEventStream({ elapsed: () => 0 });
    const first = stream.claim();
    expect(first).not.toBeNull();
    expect(stream.claim()).toBeNull();
    first!.release();
    expect(stream.claim()).not.toBeNull();
  });

  it("drops the oldest past the cap and says how many", () => {
    const stream = createEventStream({ elapsed: () => 0, maxLines: 3 });
    for (let i = 0; i < 10; i++) stream.push({ type: "stderr", text: String(i) });
    const s = sink();
    stream.claim()!.start(s);
    const got = lines(s.chunks);
    expect(got[0]).toMatchObject({ type: "error", step: "protocol" });
    expect(String(got[0]!.message)).toMatch(/^7 events were dropped/);
    expect(got.slice(1).map((e) => e.text)).toEqual(["7", "8", "9"]);
  });

  it("waits for drain instead of writing into a full socket", () => {
    const stream = createEventStream({ elapsed: () => 0 });
    const s = sink(false);
    stream.claim()!.start(s);
    stream.push({ type: "stderr", text: "1" });
    stream.push({ type: "stderr", text: "2" });
    expect(s.chunks).toHaveLength(1);
    s.drain();
    expect(lines(s.chunks).map((e) => e.text)).toEqual(["1", "2"]);
  });

  it("writes what the client parses back: notes, and errors naming the requests they leave unanswered", () => {
    const stream = createEventStream({ elapsed: () => 9 });
    stream.push({ type: "note", text: "GET stream open (HTTP 200)" });
    stream.push({ type: "error", step: "http", message: "http: the server answered 502", status: 502, body: "bad gateway", requestIds: [7, "a"] });
    const s = sink();
    stream.claim()!.start(s);
    const parsed = s.chunks.join("").split("\n").filter(Boolean).map(parseRelayEvent);
    expect(parsed).toEqual([
      { type: "note", text: "GET stream open (HTTP 200)", at: 9 },
      { type: "error", step: "http", message: "http: the server answered 502", status: 502, body: "bad gateway", requestIds: [7, "a"], at: 9 },
    ]);
  });
});
