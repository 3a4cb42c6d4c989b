import { describe, expect, it } from "vitest";
import { SchemaRegistry, type SchemaAssociation } from "./schema-registry.ts";

const A = "inmemory://patchbay/json-editor-1.json";
const B = "inmemory://patchbay/json-editor-2.json";

function recording() {
  const calls: SchemaAssociation[][] = [];
  const registry = new SchemaRegistry();
  registry.attach((schemas) => calls.push(schemas));
  return { registry, calls };
}

describe("SchemaRegistry", () => {
  it("binds each schema to exactly its own model URI", () => {
    const { registry, calls } = recording();
    registry.set(A, { type: "object" });
    registry.set(B, { type: "array" });
    const last = calls.at(-1)!;
    expect(last).toHaveLength(2);
    expect(last.map((s) => [s.fileMatch, s.schema])).toEqual([
      [[A], { type: "object" }],
      [[B], { type: "array" }],
    ]);
    expect(new Set(last.map((s) => s.uri)).size).toBe(2);
  });

  it("republishes every association on each change, since Monaco's JSON settings are global", () => {
    const { registry, calls } = recording();
    registry.set(A, { type: "object" });
    registry.set(B, { type: "array" });
    registry.set(A, { type: "string" });
    expect(calls.at(-1)!.map((s) => s.schema)).toEqual([{ type: "string" }, { type: "array" }]);
    registry.delete(A);
    expect(calls.at(-1)!.map((s) => s.fileMatch[0])).toEqual([B]);
  });

  it("publishes what was registered before the sink attached", () => {
    const registry = new SchemaRegistry();
    registry.set(A, { type: "object" });
    const calls: SchemaAssociation[][] = [];
    registry.attach((schemas) => calls.push(schemas));
    expect(calls).toEqual([[{ uri: expect.stringContaining("patchbay://schema/") as string, fileMatch: [A], schema: { type: "object" } }]]);
  });

  it("does not republish when removing a schema that was never set", () => {
    const { registry, calls } = recording();
    const before = calls.length;
    registry.delete(A);
    registry.set(B, undefined);
    expect(calls.length).toBe(before);
  });
});
