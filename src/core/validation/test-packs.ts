/**
 * Test-only packs and a fake family module for the engine's unit tests; imported by tests only.
 * The packs are tiny on purpose: one draft-07 and one 2020-12 document with a request, a result,
 * an error response, a discriminated union and keywords only one of the drafts knows.
 */
import type {
  Candidate,
  CheckTools,
  Family,
  FamilyModule,
  FamilySession,
  Issue,
  MessageKind,
  MessageRole,
  RawMessage,
  Recognition,
  SchemaDraft,
  SchemaPack,
} from "./types.ts";
import type { SchemaCompiler } from "../schema/compiler.ts";
import { definitionContainer } from "../schema/schema-document.ts";
import { ValidationEngine } from "./engine.ts";

export const D7_SCHEMA = "http://json-schema.org/draft-07/schema#";
export const D2020_SCHEMA = "https://json-schema.org/draft/2020-12/schema";

function kind(id: string, definition: string, role: MessageRole): MessageKind {
  return { id, label: `${definition} ${role}`, definition, role, direction: "either" };
}

/** Definitions both test documents share, written with `ref` pointing into the draft's container. */
function definitions(container: "definitions" | "$defs", method: string): Record<string, unknown> {
  const ref = (name: string) => ({ $ref: `#/${container}/${name}` });
  return {
    Request: {
      type: "object",
      required: ["jsonrpc", "id", "method"],
      properties: { jsonrpc: { const: "2.0" }, id: { type: ["string", "integer"] }, method: { const: method }, params: { type: "object" } },
    },
    Result: {
      type: "object",
      required: ["jsonrpc", "id", "result"],
      properties: { jsonrpc: { const: "2.0" }, id: { type: ["string", "integer"] }, result: { type: "object" } },
    },
    ErrorResponse: {
      type: "object",
      required: ["jsonrpc", "id", "error"],
      properties: {
        jsonrpc: { const: "2.0" },
        id: { type: ["string", "integer", "null"] },
        error: { type: "object", required: ["code", "message"], properties: { code: { type: "integer" }, message: { type: "string" } } },
      },
    },
    Circle: {
      type: "object",
      required: ["type", "radius"],
      properties: { type: { const: "circle" }, radius: { type: "number" } },
    },
    Square: {
      type: "object",
      required: ["type", "side"],
      properties: { type: { const: "square" }, side: { type: "number" } },
    },
    Triangle: {
      type: "object",
      required: ["type", "base"],
      properties: { type: { enum: ["triangle", "trigon"] }, base: { type: "number" } },
    },
    Shape: { anyOf: [ref("Circle"), ref("Square"), ref("Triangle")] },
    InlineShape: {
      anyOf: [
        { type: "object", required: ["kind", "x"], properties: { kind: { const: "point" }, x: { type: "number" } } },
        { type: "object", required: ["kind", "label"], properties: { kind: { const: "tag" }, label: { type: "string" } } },
      ],
    },
    // Both branches accept an object with "a": a oneOf that matches twice.
    Either: { oneOf: [{ type: "object" }, { required: ["a"] }] },
    Drawing: {
      type: "object",
      required: ["shape"],
      properties: { shapeName: { type: "string" }, shape: ref("Shape") },
    },
    Strict: {
      type: "object",
      additionalProperties: false,
      required: ["name"],
      properties: {
        name: { type: "string", pattern: "^[a-z]+$" },
        level: { enum: ["low", "mid", "high"] },
        kind: { const: "strict" },
        at: { type: "string", format: "date-time" },
        link: { type: "string", format: "uri" },
        tags: { type: "array", items: { type: "string" } },
      },
    },
    Prefixed: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }] },
    Closed: { type: "object", properties: { a: { type: "number" } }, unevaluatedProperties: false },
    Deep: { type: "array", items: ref("Deep") },
  };
}

interface PackOptions {
  readonly id: string;
  readonly family: Family;
  readonly draft: SchemaDraft;
  readonly documentId: string;
  readonly method: string;
  readonly order?: number;
  readonly assertFormats?: boolean;
}

/** A pack over the shared definitions, for the given draft. */
export function testPack(options: PackOptions): SchemaPack {
  const container = definitionContainer(options.draft);
  const defs = definitions(container, options.method);
  return {
    id: options.id,
    family: options.family,
    version: options.id.slice(options.id.indexOf("/") + 1),
    label: `Test ${options.id}`,
    order: options.order ?? 1,
    draft: options.draft,
    assertFormats: options.assertFormats ?? false,
    document: { $schema: options.draft === "2020-12" ? D2020_SCHEMA : D7_SCHEMA, $id: options.documentId, [container]: defs },
    sources: [{ title: "unit test", url: "https://example.test/" }],
    notes: [],
    kinds: [
      kind("request", "Request", "request"),
      kind("result", "Result", "result"),
      kind("error", "ErrorResponse", "error"),
      ...["Shape", "InlineShape", "Either", "Drawing", "Strict", "Prefixed", "Closed", "Deep"].map((d) => kind(d.toLowerCase(), d, "payload")),
    ],
  };
}

/** draft-07, family "mcp", method "ping". */
export const D7_PACK = testPack({ id: "test-mcp/d7", family: "mcp", draft: "draft-07", documentId: "https://patchbay.test/d7.json", method: "ping" });
/** 2020-12, family "a2a", method "echo". */
export const D2020_PACK = testPack({ id: "test-a2a/d2020", family: "a2a", draft: "2020-12", documentId: "https://patchbay.test/d2020.json", method: "echo" });

/** The pack's kind by id; throws so a typo in a test fails loudly. */
export function kindOf(pack: SchemaPack, id: string): MessageKind {
  const found = pack.kinds.find((k) => k.id === id);
  if (!found) throw new Error(`test pack ${pack.id} has no kind ${id}`);
  return found;
}

export function candidate(pack: SchemaPack, kindId: string, score: number, evidence: readonly string[] = [`guessed ${kindId}`]): Candidate {
  return { pack, kind: kindOf(pack, kindId), score, evidence };
}

/** What a fake family does; tests replace members between calls. */
export interface FakeBehaviour {
  recognise?: (value: unknown, raw: RawMessage) => Recognition;
  check?: (value: unknown, chosen: Candidate, raw: RawMessage, tools: CheckTools) => Issue[];
  notes?: (value: unknown, chosen: Candidate) => string[];
}

export interface Observation {
  readonly value: unknown;
  readonly kindId: string;
  readonly valid: boolean;
}

export interface FakeFamily extends FamilyModule {
  behaviour: FakeBehaviour;
  /** Every observe() call, across sessions. */
  readonly observed: Observation[];
  /** How many sessions were created. */
  sessions: number;
}

/** A family whose recognition, checks and notes are whatever the test says. */
export function fakeFamily(family: Family, packs: readonly SchemaPack[], behaviour: FakeBehaviour = {}): FakeFamily {
  const module: FakeFamily = {
    family,
    label: `Fake ${family}`,
    packs,
    behaviour,
    observed: [],
    sessions: 0,
    createSession(): FamilySession {
      module.sessions++;
      const session: FamilySession = {
        recognise: (value, raw) => module.behaviour.recognise?.(value, raw) ?? { candidates: [], reason: `nothing ${family} here` },
        check: (value, chosen, raw, tools) => module.behaviour.check?.(value, chosen, raw, tools) ?? [],
        observe: (value, chosen, valid) => {
          module.observed.push({ value, kindId: chosen.kind.id, valid });
        },
      };
      if (module.behaviour.notes) session.notes = (value, chosen) => module.behaviour.notes!(value, chosen);
      return session;
    },
  };
  return module;
}

/** A rule issue as a family's check() would give it. */
export function ruleIssue(pointer: string, rule: string, severity: Issue["severity"] = "error"): Issue {
  return { pointer, message: `rule ${rule} broken`, severity, source: "rule", rule };
}

/** The engine most engine tests use: a fake MCP over the draft-07 pack and a fake A2A over the 2020-12 pack. */
export function twoFamilyEngine(compiler: SchemaCompiler): { mcp: FakeFamily; a2a: FakeFamily; engine: ValidationEngine } {
  const mcp = fakeFamily("mcp", [D7_PACK]);
  const a2a = fakeFamily("a2a", [D2020_PACK]);
  return { mcp, a2a, engine: new ValidationEngine([mcp, a2a], compiler) };
}
