import { beforeEach, describe, expect, it } from "vitest";
import { SchemaCompiler, type KindCheck } from "../schema/compiler.ts";
import { type ValidationEngine } from "./engine.ts";
import { candidate, D2020_PACK, D7_PACK, kindOf, type FakeFamily, twoFamilyEngine } from "./test-packs.ts";
import type { Candidate, MessageKind, SchemaPack } from "./types.ts";

const PING = { jsonrpc: "2.0", id: 1, method: "ping" };

/** A compiler that counts the yes/no checks run against each kind object. */
class CountingCompiler extends SchemaCompiler {
  readonly runs = new Map<MessageKind, number>();
  override kindCheck(pack: SchemaPack, kind: MessageKind): KindCheck {
    const check = super.kindCheck(pack, kind);
    const isValid = ((value: unknown, context?: Parameters<KindCheck["isValid"]>[1]) => {
      this.runs.set(kind, (this.runs.get(kind) ?? 0) + 1);
      return check.isValid(value, context);
    }) as KindCheck["isValid"];
    return { ...check, isValid };
  }
}

/** A catch-all candidate over one of the pack's definitions. */
function catchAll(pack: SchemaPack, kindId: string, score: number): Candidate {
  return { pack, kind: { ...kindOf(pack, kindId), generic: true }, score, evidence: [`any ${kindId}`] };
}

let mcp: FakeFamily;
let a2a: FakeFamily;
let compiler: CountingCompiler;
let engine: ValidationEngine;

beforeEach(() => {
  compiler = new CountingCompiler();
  ({ mcp, a2a, engine } = twoFamilyEngine(compiler));
});

// The top guess (A2A's request wants method "echo") fails; what the value passes below it may earn a note.
describe("the note naming what a failed message would be valid as", () => {
  it("names a specific candidate beyond the margin when the catch-all before it fails", () => {
    a2a.behaviour.recognise = () => ({ candidates: [candidate(D2020_PACK, "request", 0.9)] });
    mcp.behaviour.recognise = () => ({ candidates: [catchAll(D7_PACK, "result", 0.6), candidate(D7_PACK, "request", 0.5)] });
    const verdict = engine.session().validateValue(PING);
    expect(verdict).toMatchObject({ status: "invalid", packId: "test-a2a/d2020" });
    expect(verdict.notes).toEqual(["It would be valid as Request request (Test test-mcp/d7)."]);
  });

  it("names nothing when a catch-all the value passes comes first", () => {
    a2a.behaviour.recognise = () => ({ candidates: [candidate(D2020_PACK, "request", 0.9)] });
    mcp.behaviour.recognise = () => ({ candidates: [catchAll(D7_PACK, "request", 0.6), candidate(D7_PACK, "request", 0.5)] });
    const verdict = engine.session().validateValue(PING);
    expect(verdict.status).toBe("invalid");
    expect(verdict.notes).toEqual([]);
  });

  it("does not check catch-alls when no specific candidate follows them: their answer could name nothing", () => {
    // A decisive top explains no other candidate, so nothing else asks about the catch-all.
    const generic = catchAll(D7_PACK, "request", 0.6);
    a2a.behaviour.recognise = () => ({ candidates: [candidate(D2020_PACK, "request", 0.95)] });
    mcp.behaviour.recognise = () => ({ candidates: [generic] });
    const verdict = engine.session().validateValue(PING);
    expect(verdict).toMatchObject({ status: "invalid", packId: "test-a2a/d2020", notes: [], candidates: [] });
    expect(compiler.runs.get(generic.kind) ?? 0).toBe(0);
  });

  it("checks nothing beyond the pick when a candidate within the margin passes", () => {
    const generic = catchAll(D7_PACK, "request", 0.95);
    mcp.behaviour.recognise = () => ({ candidates: [candidate(D7_PACK, "request", 0.96), generic] });
    expect(engine.session().validateValue(PING)).toMatchObject({ status: "valid", notes: [] });
    expect(compiler.runs.get(generic.kind) ?? 0).toBe(0);
  });
});
