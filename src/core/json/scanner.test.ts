import { describe, expect, it } from "vitest";
import { scanJson } from "./scanner.ts";

describe("scanJson", () => {
  it("builds a position tree with decoded keys", () => {
    const { root, error } = scanJson('{"a\\u0062": [1, "x"], "c": {}}');
    expect(error).toBeUndefined();
    expect(root).toEqual({
      type: "object",
      offset: 0,
      length: 30,
      properties: [
        {
          key: "ab",
          keyOffset: 1,
          keyLength: 9,
          value: {
            type: "array",
            offset: 12,
            length: 8,
            items: [
              { type: "number", offset: 13, length: 1 },
              { type: "string", offset: 16, length: 3 },
            ],
          },
        },
        { key: "c", keyOffset: 22, keyLength: 3, value: { type: "object", offset: 27, length: 2, properties: [] } },
      ],
    });
  });

  it("keeps the partial tree and closes open containers at the error", () => {
    const { root, error } = scanJson('[{"a": 1}, {"b": ');
    expect(error).toEqual({ message: "Unexpected end of input: expected a JSON value", offset: 17 });
    expect(root).toMatchObject({ type: "array", offset: 0, length: 17 });
    const items = root?.type === "array" ? root.items : [];
    expect(items).toHaveLength(2);
    expect(items[1]).toMatchObject({ type: "object", offset: 11, length: 6, properties: [{ key: "b" }] });
  });

  it("stops at the depth limit without recursion", () => {
    const { error } = scanJson("[".repeat(100_000), 50_000);
    expect(error?.message).toBe("Nesting is deeper than the limit of 50000 levels");
  });
});
