import { describe, expect, it } from "vitest";
import { partsText, partText } from "./message-parts.ts";

describe("the text of parts", () => {
  it("reads a text part of every dialect and nothing else", () => {
    expect(partText({ type: "text", text: "v0.1" })).toBe("v0.1");
    expect(partText({ kind: "text", text: "v0.3" })).toBe("v0.3");
    expect(partText({ text: "v1.0" })).toBe("v1.0");
    expect(partText({ kind: "file", text: "not text", file: {} })).toBeUndefined();
    expect(partText("text")).toBeUndefined();
  });

  it("joins text parts and shows any other part as its JSON, so a terminal hides nothing", () => {
    expect(partsText([{ text: "a" }, { kind: "data", data: { n: 1 } }, { text: "b" }])).toBe('a{"kind":"data","data":{"n":1}}b');
    expect(partsText([])).toBe("");
  });
});
