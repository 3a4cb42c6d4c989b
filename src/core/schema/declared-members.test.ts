import { describe, expect, it } from "vitest";
import type { SchemaPack } from "../validation/types.ts";
import { covers, declaredMembers } from "./declared-members.ts";

function pack(id: string, defs: Record<string, unknown>): SchemaPack {
  const document = { $schema: "https://json-schema.org/draft/2020-12/schema", $id: `https://patchbay.test/${id}.json`, $defs: defs };
  return { id, family: "mcp", version: id, label: id, order: 0, draft: "2020-12", assertFormats: false, document, sources: [], notes: [], kinds: [] };
}

const old = pack("old", {
  Msg: { allOf: [{ $ref: "#/$defs/Base" }], properties: { params: { $ref: "#/$defs/Params" } } },
  Base: { properties: { id: { type: "string" } } },
  Params: { anyOf: [{ properties: { a: { type: "string" } } }, { properties: { b: { type: "array", items: { $ref: "#/$defs/Item" } } } }] },
  Item: { properties: { name: { type: "string" }, child: { $ref: "#/$defs/Item" } } },
  Map: { type: "object", additionalProperties: { $ref: "#/$defs/Item" } },
  Open: { type: "object" },
  Indexed: { type: "object", properties: { type: {} }, additionalProperties: {} },
});

describe("declaredMembers", () => {
  it("gathers properties through $ref, allOf and every union branch, with items and recursion", () => {
    const msg = declaredMembers(old, "Msg")!;
    expect([...msg.names()].sort()).toEqual(["id", "params"]);
    const params = msg.member("params")!;
    expect([...params.names()].sort()).toEqual(["a", "b"]);
    const item = params.member("b")!.items()!;
    // A recursive definition gives a finite graph: the same shape each time round.
    const child = item.member("child")!;
    expect(child.member("child")).toBe(child);
    expect(msg.member("nope")).toBeNull();
  });

  it("tells a free-form object, a map and an index signature apart", () => {
    expect(declaredMembers(old, "Open")!.open).toBe(true);
    const map = declaredMembers(old, "Map")!;
    expect(map.open).toBe(false);
    expect([...map.member("anything")!.names()]).toEqual(["name", "child"]);
    const indexed = declaredMembers(old, "Indexed")!;
    expect([indexed.open, indexed.allowsOthers, indexed.member("other")]).toEqual([false, true, null]);
    expect(declaredMembers(old, "Missing")).toBeNull();
  });

  it("covers: a definition declaring every member of another, at every depth", () => {
    const newer = pack("new", {
      Msg: { properties: { id: {}, params: { properties: { a: {}, b: { items: { properties: { name: {}, child: {}, extra: {} } } } } } } },
    });
    const mine = declaredMembers(old, "Msg")!;
    const theirs = declaredMembers(newer, "Msg")!;
    expect(covers(theirs, mine)).toBe(true);
    expect(covers(mine, theirs)).toBe(false);
    // An index signature covers names only when the other definition's are to count as covered.
    expect(covers(declaredMembers(old, "Indexed")!, declaredMembers(newer, "Msg")!, false)).toBe(false);
    expect(covers(declaredMembers(old, "Indexed")!, declaredMembers(newer, "Msg")!, true)).toBe(true);
  });
});
