import { describe, expect, it } from "vitest";
import { newPart, partsOf, uploadedPart, type PartRow } from "./parts-draft.ts";

const fileRow = (over: Partial<Extract<PartRow, { kind: "file" }>>): PartRow => ({ kind: "file", source: "upload", name: "", mediaType: "", bytes: "", uri: "", ...over });

describe("message parts", () => {
  it("turns rows into drafts: text, uploaded bytes, a file by URL, data", () => {
    const rows = [
      { kind: "text" as const, text: "hi" },
      uploadedPart("a.bin", "", new Uint8Array([0, 255])),
      fileRow({ source: "url", uri: " https://h/f.pdf ", mediaType: "application/pdf" }),
      { kind: "data" as const, text: '{"a":[1]}' },
    ];
    expect(partsOf(rows)).toEqual({
      ok: true,
      parts: [
        { kind: "text", text: "hi" },
        { kind: "file", name: "a.bin", mediaType: "application/octet-stream", bytes: "AP8=" },
        { kind: "file", mediaType: "application/pdf", uri: "https://h/f.pdf" },
        { kind: "data", data: { a: [1] } },
      ],
    });
  });

  it("names the row that cannot be sent", () => {
    expect(partsOf([newPart("file")])).toEqual({ ok: false, error: "part 1: choose a file to upload" });
    expect(partsOf([fileRow({ source: "url" })])).toEqual({ ok: false, error: "part 1: give the file's absolute URL" });
    expect(partsOf([newPart("text"), { kind: "data", text: "[" }])).toMatchObject({ ok: false, error: expect.stringMatching(/^part 2: not JSON/) });
  });
});
