import { describe, expect, it } from "vitest";
import { SchemaCompiler } from "../schema/compiler.ts";
import { ClassMemo } from "./class-memo.ts";
import type { MessageKind, SchemaPack } from "./types.ts";

const KIND: MessageKind = { id: "ping:request", label: "ping request", definition: "Ping", role: "request", direction: "either" };

/** A pack whose Ping definition is `ping`, with a Shape union below it so the issues come through union handling. */
function pack(version: string, ping: Record<string, unknown>): SchemaPack {
  const Shape = { anyOf: [{ type: "object", required: ["side"], properties: { kind: { const: "square" }, side: { type: "number" } } }, { type: "string" }] };
  const document = { $schema: "https://json-schema.org/draft/2020-12/schema", $id: `https://patchbay.test/memo-${version}.json`, $defs: { Ping: ping, Shape } };
  return { id: `memo/${version}`, family: "mcp", version, label: `Memo ${version}`, order: Number(version.slice(1)), draft: "2020-12", assertFormats: false, document, sources: [], notes: [], kinds: [{ ...KIND }] };
}

const PING = { type: "object", required: ["id", "method"], properties: { id: { type: "integer" }, method: { const: "ping" }, shape: { $ref: "#/$defs/Shape" } } };
const V1 = pack("v1", PING);
const V2 = pack("v2", PING);
const V3 = pack("v3", { ...PING, required: ["id", "method", "shape"] });
const kindOf = (p: SchemaPack): MessageKind => p.kinds[0]!;

/** Counts the compiler's full checks, so a test can tell an answer remembered from one worked out again. */
class CountingCompiler extends SchemaCompiler {
  full = 0;
  override check(...args: Parameters<SchemaCompiler["check"]>): ReturnType<SchemaCompiler["check"]> {
    this.full++;
    return super.check(...args);
  }
}

describe("ClassMemo", () => {
  const broken = { method: "pong", shape: { kind: "square", side: "wide" } };

  it("gives a version sharing the definition the issues the compiler gives it, its own pack id in the schema paths", () => {
    const compiler = new CountingCompiler();
    const memo = new ClassMemo(compiler);
    memo.next();
    expect(compiler.definitionClass(V1, "Ping")).toBe(compiler.definitionClass(V2, "Ping"));
    const first = memo.issues(V1, kindOf(V1), broken);
    const second = memo.issues(V2, kindOf(V2), broken);
    expect(compiler.full).toBe(1);
    expect(first.length).toBeGreaterThan(1);
    expect(second).toEqual(new SchemaCompiler().check(V2, "Ping", broken));
    expect(second.every((i) => i.schemaPath?.startsWith("memo/v2#"))).toBe(true);
  });

  it("checks a definition of another class afresh, and forgets every answer at the next message", () => {
    const compiler = new CountingCompiler();
    const memo = new ClassMemo(compiler);
    memo.next();
    memo.issues(V1, kindOf(V1), broken);
    expect(memo.issues(V3, kindOf(V3), broken)).toEqual(new SchemaCompiler().check(V3, "Ping", broken));
    expect(compiler.full).toBe(2);
    memo.next();
    const valid = { id: 1, method: "ping" };
    expect(memo.issues(V1, kindOf(V1), valid)).toEqual([]);
    expect(compiler.full).toBe(3);
  });

  it("answers yes or no by class, and gives the first issue only of a value that fails", () => {
    const compiler = new SchemaCompiler();
    const memo = new ClassMemo(compiler);
    memo.next();
    const valid = { id: 1, method: "ping" };
    expect(memo.isValid(V1, kindOf(V1), valid)).toBe(true);
    expect(memo.isValid(V3, kindOf(V3), valid)).toBe(false);
    expect(memo.firstIssue(V2, kindOf(V2), valid)).toBeUndefined();
    expect(memo.firstIssue(V3, kindOf(V3), valid)).toEqual(compiler.check(V3, "Ping", valid)[0]);
    memo.next();
    expect(memo.isValid(V3, kindOf(V3), { id: 1, method: "ping", shape: "round" })).toBe(true);
  });
});
