import { describe, expect, it } from "vitest";
import { capOutput, OutputCollector } from "./output-cap.ts";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe("capOutput", () => {
  it("passes output under the cap through untouched", () => {
    expect(capOutput(bytes("hello\n"), 64)).toEqual({ text: "hello\n", truncated: false });
  });

  it("keeps head and tail around a marker, never exceeding the cap", () => {
    const input = "A".repeat(500) + "B".repeat(500);
    const out = capOutput(bytes(input), 200);
    expect(out.truncated).toBe(true);
    expect(out.text.startsWith("AAAA")).toBe(true);
    expect(out.text.endsWith("BBBB")).toBe(true);
    expect(out.text).toMatch(/\n… \d+ bytes omitted …\n/);
    expect(bytes(out.text).length).toBeLessThanOrEqual(200);
    const omitted = Number(/… (\d+) bytes omitted/.exec(out.text)?.[1]);
    expect(bytes(out.text).length - bytes(/\n… \d+ bytes omitted …\n/.exec(out.text)?.[0] ?? "").length + omitted).toBe(1000);
  });

  it("never splits a multi-byte character", () => {
    const out = capOutput(bytes("é".repeat(1000)), 101);
    expect(out.text).not.toContain("\uFFFD");
    expect(bytes(out.text).length).toBeLessThanOrEqual(101);
  });
});

describe("OutputCollector", () => {
  it("gives the same text chunk by chunk as capOutput does on the whole, in bounded memory", () => {
    const whole = Array.from({ length: 5000 }, (_, i) => `line ${i} ✓\n`).join("");
    const all = bytes(whole);
    const collector = new OutputCollector(300);
    for (let i = 0; i < all.length; i += 97) collector.push(all.subarray(i, i + 97));
    expect(collector.totalBytes).toBe(all.length);
    const out = collector.finish();
    expect(out).toEqual(capOutput(all, 300));
    expect(out.text.startsWith("line 0 ✓")).toBe(true);
    expect(out.text.endsWith("line 4999 ✓\n")).toBe(true);
    expect(out.text).not.toContain("\uFFFD");
  });
});
