import { describe, expect, it } from "vitest";
import { JsonLocator } from "./locate.ts";
import { pointerStart, positionAt } from "./locate-start.ts";
import { formatPointer, JsonPointerSyntaxError } from "./pointer.ts";

const TEXTS = [
  '{"a": 1}',
  ['{', '  "list": [', "    10,", '    {"x~y": true, "a/b": null}', "  ]", "}"].join("\n"),
  '{\r\n  "a": {\r\n    "b": 2\r\n  }\r\n}',
  '{\r"a":\r1}',
  '{"caf\\u00e9": 1, "say \\"hi\\"": [0, {"q": "}]\\\\"}]}',
  '{"a": 1, "a": [2, {"a": 3, "a": {"b": -1.5e3}}]}',
  '{"": 5, "0": true, "~1": 0, "k": "😀", "n": 1}',
  '["a\\"b", [], {}, [[1, 2], [3]], null, false]',
  "  42 ",
  ' \t{ "empty" : { } , "nested" : [ { "deep" : [ "x" , { "y" : "z" } ] } ] } ',
  JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "w", arguments: { city: "c", days: [1, 2] } } }, null, 2),
];

/** Every pointer in a value, and for each a sibling and a child that do not exist. */
function pointers(value: unknown, tokens: string[] = [], out: string[] = []): string[] {
  out.push(formatPointer(tokens));
  out.push(formatPointer([...tokens, "missing"]), formatPointer([...tokens, "7"]), formatPointer([...tokens, "-"]), formatPointer([...tokens, "01"]));
  if (Array.isArray(value)) value.forEach((v, i) => pointers(v, [...tokens, String(i)], out));
  else if (typeof value === "object" && value !== null) for (const [k, v] of Object.entries(value)) pointers(v, [...tokens, k], out);
  return out;
}

describe("pointerStart agrees with JsonLocator on valid JSON", () => {
  for (const text of TEXTS) {
    it(JSON.stringify(text).slice(0, 60), () => {
      const locator = new JsonLocator(text);
      for (const pointer of pointers(JSON.parse(text))) {
        for (const target of ["value", "key"] as const) {
          const expected = locator.locate(pointer, { target });
          const start = pointerStart(text, pointer, target);
          expect([pointer, target, start]).toEqual([pointer, target, expected.offset]);
          expect(positionAt(text, start)).toEqual({ line: expected.line, column: expected.column });
        }
      }
    });
  }

  it("refuses a malformed pointer as JsonLocator does", () => {
    expect(() => pointerStart('{"a": 1}', "a")).toThrow(JsonPointerSyntaxError);
    expect(() => pointerStart('{"a": 1}', "/a~2")).toThrow(JsonPointerSyntaxError);
  });
});
