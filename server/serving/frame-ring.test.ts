import { describe, expect, it } from "vitest";
import { FrameRing, MAX_PAGE } from "./frame-ring.ts";

const frame = (text: string, session?: string) => ({ direction: "in" as const, text, ...(session ? { session } : {}) });

describe("FrameRing", () => {
  it("numbers frames from 1 and pages after a sequence number", () => {
    const ring = new FrameRing({ now: () => 5 });
    ring.push(frame("a", "s1"));
    ring.push({ direction: "out", text: "b" });
    ring.push(frame("c"));
    expect(ring.after(0)).toEqual({
      frames: [
        { seq: 1, at: 5, direction: "in", session: "s1", text: "a" },
        { seq: 2, at: 5, direction: "out", text: "b" },
        { seq: 3, at: 5, direction: "in", text: "c" },
      ],
      next: 3,
      dropped: 0,
    });
    expect(ring.after(2, 10).frames.map((f) => f.text)).toEqual(["c"]);
    expect(ring.after(3)).toEqual({ frames: [], next: 3, dropped: 0 });
    expect(ring.after(1, 1)).toMatchObject({ frames: [{ seq: 2 }], next: 2 });
  });

  it("keeps the newest frames within its count and character bounds, and says how many a reader missed", () => {
    const ring = new FrameRing({ capacity: 3, maxChars: 10 });
    for (const text of ["aaaa", "bbbb", "cccc", "dddd"]) ring.push(frame(text));
    expect(ring.after(0).frames.map((f) => f.text)).toEqual(["cccc", "dddd"]);
    expect(ring.after(0).dropped).toBe(2);
    expect(ring.after(1).dropped).toBe(1);
    for (let i = 0; i < 5; i++) ring.push(frame("e"));
    expect(ring.size).toBe(3);
    expect(ring.latest).toBe(9);
  });

  it("cuts a frame over the per-frame cap and records its length", () => {
    const ring = new FrameRing({ maxFrameChars: 4 });
    ring.push(frame("0123456789"));
    expect(ring.after(0).frames[0]).toMatchObject({ text: "0123", truncated: true, length: 10 });
  });

  it("keeps one oversized frame rather than none", () => {
    const ring = new FrameRing({ maxChars: 3 });
    ring.push(frame("abcdef"));
    expect(ring.size).toBe(1);
  });

  it("caps a page, and brings a reader that is ahead back to the present", () => {
    const ring = new FrameRing();
    for (let i = 0; i < MAX_PAGE + 10; i++) ring.push(frame(String(i)));
    expect(ring.after(0, 10_000).frames).toHaveLength(MAX_PAGE);
    expect(ring.after(99_999)).toEqual({ frames: [], next: MAX_PAGE + 10, dropped: 0 });
  });
  it("keeps a NATS frame's subject and headers, and counts them against the character bound", () => {
    const ring = new FrameRing({ now: () => 7, maxChars: 30 });
    ring.push({ direction: "out", subject: "a.b", headers: { "Nats-Service-Error-Code": ["400"] }, text: "" });
    expect(ring.after(0).frames).toEqual([{ seq: 1, at: 7, direction: "out", subject: "a.b", headers: { "Nats-Service-Error-Code": ["400"] }, text: "" }]);
    ring.push({ direction: "in", subject: "c", text: "x" });
    expect(ring.after(0).frames.map((f) => f.seq)).toEqual([2]);
  });

  it("keeps an A2A frame's binding, method, path and status, and counts the strings against the character bound", () => {
    const ring = new FrameRing({ now: () => 9, maxChars: 40 });
    ring.push({ direction: "out", binding: "jsonrpc", method: "POST", path: "/a2a/jsonrpc", status: 200, text: "{}" });
    expect(ring.after(0).frames).toEqual([{ seq: 1, at: 9, direction: "out", binding: "jsonrpc", method: "POST", path: "/a2a/jsonrpc", status: 200, text: "{}" }]);
    // 7 + 4 + 12 + 2 = 25 characters each: a second one overflows 40 and pushes the first out.
    ring.push({ direction: "in", binding: "jsonrpc", method: "POST", path: "/a2a/jsonrpc", text: "{}" });
    expect(ring.after(0).frames.map((f) => f.seq)).toEqual([2]);
  });
});

