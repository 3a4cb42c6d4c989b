import { describe, expect, it, vi } from "vitest";
import { createValidationEngine } from "../../../src/core/packs/index.ts";
import { SchemaCompiler } from "../../../src/core/schema/compiler.ts";

/**
 * A message that declares no version lists every version it is valid in. A version whose
 * definition the judged one is proven to lie within is listed without its validator running;
 * the others are checked as before.
 */

function counting() {
  const compiler = new SchemaCompiler();
  const engine = createValidationEngine(compiler);
  const asked = vi.spyOn(compiler, "kindCheck");
  const packsAsked = () => [...new Set(asked.mock.calls.map(([pack]) => pack.id))].sort();
  return { engine, packsAsked };
}

describe("validIn", () => {
  it("lists the older versions a newer notification lies within, with no check of theirs run", () => {
    const { engine, packsAsked } = counting();
    const progress = { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "t1", progress: 3, total: 10 } };
    const v = engine.session().validateValue(progress);
    expect(v).toMatchObject({ status: "valid", packId: "mcp/2026-07-28", versionBasis: "evidence" });
    expect(v.validIn).toEqual(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]);
    expect(packsAsked()).toEqual(["mcp/2026-07-28"]);
  });

  it("still checks a version the proof cannot vouch for, and leaves out one the message fails", () => {
    const { engine, packsAsked } = counting();
    const session = engine.session();
    session.validateValue({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "find" } });
    // A resource link is content from 2025-06-18 on: the older results refuse it.
    const result = { jsonrpc: "2.0", id: 7, result: { content: [{ type: "resource_link", uri: "file:///a.txt", name: "a.txt" }] } };
    const v = session.validateValue(result);
    expect(v).toMatchObject({ status: "valid", kindId: "tools/call:result", versionBasis: "evidence" });
    expect(v.validIn).toEqual(["2025-06-18", "2025-11-25"]);
    expect(packsAsked()).toEqual(expect.arrayContaining(["mcp/2024-11-05", "mcp/2025-03-26"]));
  });

  it("plans once per kind which versions the judged one settles and which stay to be checked", () => {
    const engine = createValidationEngine();
    const pack = engine.pack("mcp/2025-11-25")!;
    const kind = pack.kinds.find((k) => k.id === "tools/call:result")!;
    const plan = engine.validInPlan(pack, kind);
    const versionsOf = (mask: number) => plan.versions.filter((_, v) => (mask & (1 << v)) !== 0).map((v) => v.pack.version);
    expect(versionsOf(plan.settled)).toEqual(expect.arrayContaining(["2025-11-25"]));
    expect(plan.open.map((v) => v.pack.version)).toEqual(expect.arrayContaining(["2024-11-05", "2026-07-28"]));
    expect(versionsOf(plan.bits.reduce((a, b) => a | b, 0))).toEqual(plan.open.map((v) => v.pack.version));
    expect(plan.settled & plan.bits.reduce((a, b) => a | b, 0)).toBe(0);
    expect(engine.validInPlan(pack, kind)).toBe(plan);
  });
});
