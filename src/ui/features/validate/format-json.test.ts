import { describe, expect, it } from "vitest";
import { formatJsonText } from "./format-json.ts";

describe("formatJsonText", () => {
  it("re-indents without touching tokens", () => {
    const text = '{"a":[1,2.50,{"b":"x, y: {z}"}],"e":{},"f":[ ],"n":123456789012345678901234567890,"s":"q\\"{"}';
    expect(formatJsonText(text)).toBe(
      [
        "{",
        '  "a": [',
        "    1,",
        "    2.50,",
        "    {",
        '      "b": "x, y: {z}"',
        "    }",
        "  ],",
        '  "e": {},',
        '  "f": [],',
        '  "n": 123456789012345678901234567890,',
        '  "s": "q\\"{"',
        "}",
      ].join("\n"),
    );
  });

  it("is stable on formatted text and keeps broken text whole", () => {
    const once = formatJsonText('{"a":{"b":[true,null]}}');
    expect(formatJsonText(once)).toBe(once);
    const broken = '{"a": tru, "b": "open';
    expect(formatJsonText(broken).replace(/\s/g, "")).toBe(broken.replace(/\s/g, ""));
  });
});
