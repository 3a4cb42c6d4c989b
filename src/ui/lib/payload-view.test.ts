import { describe, expect, it } from "vitest";
import { hexDump, payloadView, prettyJson, truncationMarker } from "./payload-view.ts";

const enc = new TextEncoder();

describe("payloadView", () => {
  it("shows valid UTF-8 as text, whole when under the limit", () => {
    expect(payloadView(enc.encode("héllo 😀"))).toEqual({ kind: "text", body: "héllo 😀", truncated: null });
  });

  it("keeps a leading byte order mark visible", () => {
    expect(payloadView(new Uint8Array([0xef, 0xbb, 0xbf, 0x41])).body).toBe("\ufeffA");
  });

  it("shows non-UTF-8 as a hex dump", () => {
    const view = payloadView(new Uint8Array([0xff, 0x41, 0x00]));
    expect(view.kind).toBe("hex");
    expect(view.body).toBe(`00000000  ff 41 00 ${"   ".repeat(5)}  ${"   ".repeat(8)}|.A.|`);
  });

  it("cuts long payloads for display with a marker naming the hidden bytes", () => {
    const view = payloadView(enc.encode("a".repeat(1_048_576)), 262_144);
    expect(view.body).toHaveLength(262_144);
    expect(view.truncated).toBe("… 786,432 more bytes not shown (kept whole in exports)");
  });

  it("classifies by the whole payload even when the cut splits a character", () => {
    const bytes = enc.encode("ab€"); // € is 3 bytes
    const view = payloadView(bytes, 3);
    expect(view.kind).toBe("text");
    expect(view.body).toBe("ab\ufffd");
    expect(view.truncated).toBe(truncationMarker(2));
  });

  it("cuts a binary payload's hex dump at the limit", () => {
    const bytes = new Uint8Array(100).fill(0xff);
    const view = payloadView(bytes, 32);
    expect(view.body.split("\n")).toHaveLength(2);
    expect(view.truncated).toBe("… 68 more bytes not shown (kept whole in exports)");
  });
});

describe("hexDump", () => {
  it("prints offsets, two hex groups and printable ASCII", () => {
    const bytes = enc.encode("0123456789abcdefXY");
    expect(hexDump(bytes).split("\n")).toEqual([
      "00000000  30 31 32 33 34 35 36 37  38 39 61 62 63 64 65 66  |0123456789abcdef|",
      `00000010  58 59 ${"   ".repeat(6)}  ${"   ".repeat(8)}|XY|`,
    ]);
    expect(hexDump(new Uint8Array(0))).toBe("");
  });
});

describe("prettyJson", () => {
  it("indents and marks characters cut beyond the limit", () => {
    expect(prettyJson({ a: [1] })).toEqual({ body: '{\n  "a": [\n    1\n  ]\n}', truncated: null });
    const cut = prettyJson({ long: "x".repeat(100) }, 20);
    expect(cut.body).toHaveLength(20);
    expect(cut.truncated).toBe(truncationMarker(JSON.stringify({ long: "x".repeat(100) }, null, 2).length - 20, "characters"));
  });
});
