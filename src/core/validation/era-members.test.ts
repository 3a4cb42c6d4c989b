import { describe, expect, it } from "vitest";
import { SchemaCompiler } from "../schema/compiler.ts";
import { type EraContext, withEraIssues } from "./era-members.ts";
import type { Candidate, MessageKind, SchemaPack, VersionBasis } from "./types.ts";

const KIND: MessageKind = { id: "hello:request", label: "hello request", definition: "Hello", role: "request", direction: "either" };

function pack(version: string, order: number, params: Record<string, unknown>, extra: Record<string, unknown> = {}): SchemaPack {
  const Hello = { type: "object", required: ["params"], properties: { params: { type: "object", properties: params, ...extra } } };
  const document = { $schema: "https://json-schema.org/draft/2020-12/schema", $id: `https://patchbay.test/era-${version}.json`, $defs: { Hello } };
  return { id: `t/${version}`, family: "mcp", version, label: `T ${version}`, order, draft: "2020-12", assertFormats: false, document, sources: [], notes: [], kinds: [{ ...KIND }] };
}

const V1 = pack("v1", 1, { name: { type: "string" } });
const V2 = pack("v2", 2, { name: { type: "string" }, mode: { enum: ["form", "url"] } });
const V3 = pack("v3", 3, { name: { type: "string" }, mode: { enum: ["form", "url"] }, ttl: { type: "integer" } }, { required: ["ttl"] });
const PACKS = [V1, V2, V3];
const compiler = new SchemaCompiler();
const context: EraContext = {
  compiler,
  versionsOf: (_family, kind) => PACKS.map((p) => ({ pack: p, kind: p.kinds.find((k) => k.id === kind.id)! })),
};
const pick = (p: SchemaPack, basis?: VersionBasis): Candidate => ({ pack: p, kind: p.kinds[0]!, score: 0.95, evidence: [], ...(basis ? { basis } : {}) });

describe("withEraIssues", () => {
  it("flags a member of a newer version in a message that declares an older one, at the member", () => {
    const issues = withEraIssues(context, { params: { name: "x", mode: "form" } }, pick(V1, "declared"), []);
    expect(issues).toEqual([
      expect.objectContaining({ pointer: "/params/mode", severity: "error", rule: "era.member", message: '"mode" is not part of T v1\'s hello request (it appears in v2 and v3).' }),
    ]);
  });

  it("leaves a message alone whose members its version declares, and members no version declares", () => {
    const none: [] = [];
    expect(withEraIssues(context, { params: { name: "x", vendor: 1 } }, pick(V1, "declared"), none)).toBe(none);
    expect(withEraIssues(context, { params: { name: "x", mode: "url" } }, pick(V2, "declared"), none)).toBe(none);
    expect(withEraIssues(context, { params: { mode: "url" } }, pick(V1, "negotiated"), none)).toBe(none);
  });

  it("with nothing declared, lets another passing version that knows every member settle it", () => {
    // Passes v1 (mode unknown there) and v2 (mode declared): a v2 message, no error.
    expect(withEraIssues(context, { params: { mode: "form" } }, pick(V1), [])).toEqual([]);
  });

  it("with nothing declared, flags a message that only passes by ignoring another version's members, and says what that version lacks", () => {
    // ttl is v3's, but v3 requires it as an integer; v1 and v2 pass only by ignoring it.
    const issues = withEraIssues(context, { params: { mode: 7, ttl: "soon" } }, pick(V1), []);
    expect(issues.map((i) => i.pointer)).toEqual(expect.arrayContaining(["/params/mode", "/params/ttl"]));
    expect(issues.some((i) => i.message.startsWith("In T v"))).toBe(true);
  });

  it("adds nothing at a pointer a rule already names", () => {
    const rule = { pointer: "/params/mode", message: "a rule", severity: "error" as const, source: "rule" as const };
    expect(withEraIssues(context, { params: { mode: "form" } }, pick(V1, "declared"), [rule])).toEqual([rule]);
  });
});
