import { describe, expect, it } from "vitest";
import { tapResponseFrames } from "./response-frames.ts";

const encoder = new TextEncoder();
function streamOf(chunks: readonly string[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

describe("the frames of an HTTP answer", () => {
  it("records a JSON body as one frame, unchanged for the client", async () => {
    const frames: string[] = [];
    const body = '{"jsonrpc":"2.0","id":1,"result":{"é":"ü"}}';
    const tapped = tapResponseFrames(new Response(streamOf([body.slice(0, 20), body.slice(20)]), { headers: { "content-type": "application/json" } }), (t) => frames.push(t));
    expect(await tapped.text()).toBe(body);
    expect(frames).toEqual([body]);
  });

  it("records each event of a stream as it passes, split across chunks however they fall, keep-alives left out", async () => {
    const frames: string[] = [];
    const wire = ["event: message\ndata: {\"a\"", ":1}\n\n: keep-alive\n\ndata: {\"b\":2}\r", "\n\r\ndata: {\"c\":3}"];
    const tapped = tapResponseFrames(new Response(streamOf(wire), { headers: { "content-type": "text/event-stream" } }), (t) => frames.push(t));
    expect(await tapped.text()).toBe(wire.join(""));
    expect(frames).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it("records what arrived when the client stops reading, and leaves other answers alone", async () => {
    const frames: string[] = [];
    let pull = 0;
    const endless = new ReadableStream<Uint8Array>({ pull: (c) => c.enqueue(encoder.encode(`data: {"n":${pull++}}\n\n`)) });
    const reader = tapResponseFrames(new Response(endless, { headers: { "content-type": "text/event-stream" } }), (t) => frames.push(t)).body!.getReader();
    await reader.read();
    await reader.cancel();
    expect(frames).toEqual(['{"n":0}']);
    const plain = new Response("hello", { headers: { "content-type": "text/plain" } });
    expect(tapResponseFrames(plain, () => frames.push("!"))).toBe(plain);
    const empty = new Response(null, { status: 202 });
    expect(tapResponseFrames(empty, () => frames.push("!"))).toBe(empty);
    expect(frames).toHaveLength(1);
  });
});
