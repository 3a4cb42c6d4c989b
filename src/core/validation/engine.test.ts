import { beforeEach, describe, expect, it } from "vitest";
import { PackCompileError, SchemaCompiler } from "../schema/compiler.ts";
import { RECOGNITION_FLOOR, SCORE_MARGIN, type ValidationEngine } from "./engine.ts";
import { candidate, D2020_PACK, D7_PACK, D7_SCHEMA, ruleIssue, type FakeFamily, twoFamilyEngine } from "./test-packs.ts";
import type { Candidate, SchemaPack } from "./types.ts";

const compiler = new SchemaCompiler();
const PING = { jsonrpc: "2.0", id: 1, method: "ping" };
const RESULT = { jsonrpc: "2.0", id: 1, result: {} };
const ERROR = { jsonrpc: "2.0", id: 1, error: { code: -32601, message: "Method not found" } };

let mcp: FakeFamily;
let a2a: FakeFamily;
let engine: ValidationEngine;

function offer(family: FakeFamily, ...candidates: Candidate[]): void {
  family.behaviour.recognise = () => ({ candidates });
}

beforeEach(() => {
  ({ mcp, a2a, engine } = twoFamilyEngine(compiler));
});

describe("ValidationEngine", () => {
  it("lists its packs family by family and finds one by id", () => {
    expect(engine.packs().map((p) => p.id)).toEqual(["test-mcp/d7", "test-a2a/d2020"]);
    expect(engine.pack("test-a2a/d2020")).toBe(D2020_PACK);
    expect(engine.pack("nope")).toBeUndefined();
  });

  it("gives each validation session fresh family sessions", () => {
    engine.session();
    engine.session();
    expect(mcp.sessions).toBe(2);
    expect(a2a.sessions).toBe(2);
  });

  it("uses the constants the design names", () => {
    expect(SCORE_MARGIN).toBe(0.25);
    expect(RECOGNITION_FLOOR).toBe(0.3);
  });
});

describe("choosing among candidates", () => {
  it("merges every family's candidates and takes the best valid one", () => {
    offer(mcp, candidate(D7_PACK, "result", 0.9, ["has result"]));
    offer(a2a, candidate(D2020_PACK, "result", 0.95, ["has result, a2a"]));
    const verdict = engine.session().validateValue(RESULT);
    expect(verdict).toMatchObject({
      status: "valid",
      family: "a2a",
      packId: "test-a2a/d2020",
      packLabel: "Test test-a2a/d2020",
      version: "d2020",
      kindId: "result",
      kindLabel: "Result result",
      role: "result",
      direction: "either",
      confidence: 0.95,
      evidence: ["has result, a2a"],
      issues: [],
      notes: [],
      candidates: [],
      overridden: false,
    });
  });

  it("takes a valid candidate within the margin over an invalid top", () => {
    offer(a2a, candidate(D2020_PACK, "request", 0.9));
    offer(mcp, candidate(D7_PACK, "request", 0.7));
    const verdict = engine.session().validateValue(PING);
    expect(verdict).toMatchObject({ status: "valid", packId: "test-mcp/d7", kindId: "request", confidence: 0.7, issues: [], candidates: [] });
  });

  it("counts a difference of exactly the margin as within it, despite floating-point rounding", () => {
    offer(a2a, candidate(D2020_PACK, "request", 0.9));
    offer(mcp, candidate(D7_PACK, "request", 0.65));
    expect(engine.session().validateValue(PING)).toMatchObject({ status: "valid", packId: "test-mcp/d7" });
  });

  it("does not let another family's guess displace a decisive match, but names it as an alternative", () => {
    offer(a2a, candidate(D2020_PACK, "request", 0.95));
    offer(mcp, candidate(D7_PACK, "request", 0.9));
    const verdict = engine.session().validateValue(PING);
    expect(verdict).toMatchObject({ status: "invalid", packId: "test-a2a/d2020" });
    expect(verdict.notes.some((n) => n.startsWith("It would be valid as"))).toBe(true);
  });

  it("lets an equally decisive match from another family win when it validates", () => {
    offer(a2a, candidate(D2020_PACK, "request", 0.95));
    offer(mcp, candidate(D7_PACK, "request", 0.95));
    expect(engine.session().validateValue(PING)).toMatchObject({ status: "valid", packId: "test-mcp/d7" });
  });

  it("breaks a tie in favour of the family of the previous message", () => {
    const session = engine.session();
    offer(a2a, candidate(D2020_PACK, "request", 0.9));
    expect(session.validateValue(PING).family).toBe("a2a");
    // Both validate; MCP is listed first, so without the tie-break MCP would win.
    const answer = { jsonrpc: "2.0", id: 1, result: {} };
    offer(mcp, candidate(D7_PACK, "result", 0.6));
    offer(a2a, candidate(D2020_PACK, "result", 0.6));
    expect(session.validateValue(answer)).toMatchObject({ status: "valid", family: "a2a" });
    expect(engine.session().validateValue(answer)).toMatchObject({ status: "valid", family: "mcp" });
  });

  it("reports the top as invalid when the valid one lies further down, naming it as an alternative", () => {
    offer(a2a, candidate(D2020_PACK, "request", 0.9));
    offer(mcp, candidate(D7_PACK, "request", 0.6));
    const verdict = engine.session().validateValue(PING);
    expect(verdict.status).toBe("invalid");
    expect(verdict.packId).toBe("test-a2a/d2020");
    expect(verdict.confidence).toBe(0.9);
    expect(verdict.issues).toEqual([expect.objectContaining({ pointer: "/method", keyword: "const", source: "schema" })]);
    expect(verdict.notes).toEqual(["It would be valid as Request request (Test test-mcp/d7)."]);
    expect(verdict.candidates).toEqual([{ packId: "test-mcp/d7", kindId: "request", label: "Request request (Test test-mcp/d7)", valid: true }]);
  });

  it("explains the invalid candidates tried before a pick that fails a rule", () => {
    offer(a2a, candidate(D2020_PACK, "request", 0.9));
    offer(mcp, candidate(D7_PACK, "request", 0.8));
    mcp.behaviour.check = () => [ruleIssue("/id", "test.id")];
    const verdict = engine.session().validateValue(PING);
    expect(verdict.status).toBe("invalid");
    expect(verdict.packId).toBe("test-mcp/d7");
    expect(verdict.candidates).toEqual([
      expect.objectContaining({ packId: "test-a2a/d2020", valid: false, firstIssue: expect.objectContaining({ pointer: "/method" }) }),
    ]);
  });

  it("calls a low-scored value that nothing validates unrecognised, reporting the nearest candidate and why the others failed", () => {
    offer(a2a, candidate(D2020_PACK, "result", 0.2), candidate(D2020_PACK, "shape", 0.05));
    offer(mcp, candidate(D7_PACK, "request", 0.1));
    const value = { foo: 1 };
    const verdict = engine.session().validateValue(value);
    expect(verdict.status).toBe("unrecognised");
    // "shape" (a union) fails with one issue, fewer than the three missing members of the others.
    expect(verdict.kindId).toBe("shape");
    expect(verdict.confidence).toBe(0.05);
    expect(verdict.issues.length).toBeGreaterThan(0);
    expect(verdict.candidates.map((c) => [c.packId, c.kindId, c.valid])).toEqual([
      ["test-a2a/d2020", "result", false],
      ["test-mcp/d7", "request", false],
    ]);
    for (const c of verdict.candidates) expect(c.firstIssue).toMatchObject({ severity: "error", source: "schema" });
    expect(verdict.candidates[0]?.firstIssue?.message).toMatch(/^Missing required property/);
  });

  it("reports a failure against the equally likely candidate with the fewest errors, not simply the first", () => {
    offer(mcp, candidate(D7_PACK, "request", 0.9), candidate(D7_PACK, "result", 0.89));
    // As a request it lacks a method and has the wrong version (2 errors); as a result, only the version.
    const verdict = engine.session().validateValue({ jsonrpc: "1.0", id: 1, result: {} });
    expect(verdict).toMatchObject({ status: "invalid", kindId: "result" });
    expect(verdict.issues.filter((i) => i.source === "schema").map((i) => i.pointer)).toEqual(["/jsonrpc"]);
  });

  it("explains at most four other candidates", () => {
    const kinds = ["request", "result", "error", "strict", "closed", "drawing"];
    offer(mcp, ...kinds.map((k, i) => candidate(D7_PACK, k, 0.2 - i / 100)));
    expect(engine.session().validateValue("text").candidates).toHaveLength(4);
  });

  it("keeps an invalid top guess at or above the floor as invalid, not unrecognised", () => {
    offer(mcp, candidate(D7_PACK, "request", RECOGNITION_FLOOR));
    expect(engine.session().validateValue({ foo: 1 }).status).toBe("invalid");
  });

  it("accepts a schema-valid guess even below the floor", () => {
    offer(mcp, candidate(D7_PACK, "result", 0.1));
    expect(engine.session().validateValue(RESULT)).toMatchObject({ status: "valid", confidence: 0.1 });
  });

  it("without candidates, is unrecognised with each family's reason", () => {
    a2a.behaviour.recognise = () => ({ candidates: [] });
    const verdict = engine.session().validateValue({ foo: 1 });
    expect(verdict).toEqual({
      status: "unrecognised",
      confidence: 0,
      evidence: ["Fake mcp: nothing mcp here"],
      issues: [],
      notes: [],
      candidates: [],
      overridden: false,
    });
    a2a.behaviour.recognise = () => ({ candidates: [], reason: "no a2a marker" });
    expect(engine.session().validateValue({}).evidence).toEqual(["Fake mcp: nothing mcp here", "Fake a2a: no a2a marker"]);
  });

  it("lets a broken pack fail loudly, naming it", () => {
    const broken: SchemaPack = { ...D7_PACK, id: "test/broken", document: { $schema: D7_SCHEMA, $id: "https://patchbay.test/broken.json", definitions: { Request: { type: 5 } } } };
    offer(mcp, candidate(broken, "request", 0.9));
    expect(() => engine.session().validateValue(PING)).toThrow(PackCompileError);
    expect(() => engine.session().validateValue(PING)).toThrow(/test\/broken/);
  });
});

describe("statuses, rules and notes", () => {
  it("calls a valid error kind an error response", () => {
    offer(mcp, candidate(D7_PACK, "error", 0.95));
    expect(engine.session().validateValue(ERROR)).toMatchObject({ status: "error-response", role: "error", issues: [] });
  });

  it("calls a broken error kind invalid", () => {
    offer(mcp, candidate(D7_PACK, "error", 0.95));
    const verdict = engine.session().validateValue({ ...ERROR, error: { code: "x" } });
    expect(verdict.status).toBe("invalid");
    expect(verdict.role).toBe("error");
  });

  it("makes a schema-valid message invalid when a rule fails, and keeps it valid for a warning", () => {
    offer(mcp, candidate(D7_PACK, "request", 0.95));
    mcp.behaviour.check = () => [ruleIssue("/id", "test.warn", "warning")];
    const warned = engine.session().validateValue(PING);
    expect(warned.status).toBe("valid");
    expect(warned.issues).toEqual([expect.objectContaining({ rule: "test.warn", severity: "warning" })]);
    mcp.behaviour.check = () => [ruleIssue("/id", "test.warn", "warning"), ruleIssue("/id", "test.error")];
    const failed = engine.session().validateValue(PING);
    expect(failed.status).toBe("invalid");
    expect(failed.issues.map((i) => [i.rule, i.severity])).toEqual([
      ["test.error", "error"],
      ["test.warn", "warning"],
    ]);
  });

  it("puts schema and rule errors before warnings", () => {
    offer(mcp, candidate(D7_PACK, "request", 0.95));
    mcp.behaviour.check = () => [ruleIssue("", "test.warn", "warning")];
    const verdict = engine.session().validateValue({ ...PING, id: 1.5 });
    expect(verdict.issues.map((i) => [i.source, i.severity])).toEqual([
      ["schema", "error"],
      ["rule", "warning"],
    ]);
  });

  it("passes the message, its choice, the raw text and working tools to check()", () => {
    offer(mcp, candidate(D7_PACK, "request", 0.95));
    const seen: unknown[] = [];
    mcp.behaviour.check = (value, chosen, raw, tools) => {
      seen.push(value, chosen.kind.id, raw.text);
      return tools.validateWithSchema({ type: "object", required: ["q"] }, {}, "/params", "draft-07");
    };
    const text = JSON.stringify(PING);
    const verdict = engine.session().validateText(text);
    expect(seen).toEqual([PING, "request", text]);
    expect(verdict.status).toBe("invalid");
    expect(verdict.issues).toEqual([expect.objectContaining({ pointer: "/params", source: "tool-schema", keyword: "required" })]);
  });

  it("only asks the family that owns the chosen candidate to check and observe", () => {
    offer(mcp, candidate(D7_PACK, "request", 0.95));
    offer(a2a, candidate(D2020_PACK, "request", 0.5));
    a2a.behaviour.check = () => {
      throw new Error("not mine");
    };
    engine.session().validateValue(PING);
    expect(mcp.observed).toEqual([{ value: PING, kindId: "request", valid: true }]);
    expect(a2a.observed).toEqual([]);
  });

  it("lets the session observe each verdict, valid or not", () => {
    offer(mcp, candidate(D7_PACK, "request", 0.95));
    const session = engine.session();
    session.validateValue(PING);
    session.validateValue({ ...PING, id: 0.5 });
    expect(mcp.observed.map((o) => o.valid)).toEqual([true, false]);
  });

  it("carries the session's notes", () => {
    offer(mcp, candidate(D7_PACK, "result", 0.95));
    mcp.behaviour.notes = () => ["a result, not a protocol failure"];
    expect(engine.session().validateValue(RESULT).notes).toEqual(["a result, not a protocol failure"]);
  });

  it("does not write into the array a family's notes() returned", () => {
    const none: string[] = [];
    offer(a2a, candidate(D2020_PACK, "request", 0.9));
    offer(mcp, candidate(D7_PACK, "request", 0.6));
    a2a.behaviour.notes = () => none;
    const session = engine.session();
    session.validateValue(PING);
    const second = session.validateValue(PING);
    expect(second.notes).toHaveLength(1);
    expect(none).toEqual([]);
  });
});

describe("overrides", () => {
  it("validates against the chosen pack and kind, with full confidence", () => {
    const verdict = engine.session().validateValue(RESULT, {}, { packId: "test-mcp/d7", kindId: "result" });
    expect(verdict).toMatchObject({ status: "valid", packId: "test-mcp/d7", kindId: "result", confidence: 1, overridden: true, evidence: ["chosen by you"] });
    expect(mcp.observed).toHaveLength(1);
  });

  it("reports the chosen kind invalid rather than unrecognised", () => {
    offer(a2a, candidate(D2020_PACK, "result", 0.95));
    const verdict = engine.session().validateValue({ foo: 1 }, {}, { packId: "test-mcp/d7", kindId: "request" });
    expect(verdict).toMatchObject({ status: "invalid", packId: "test-mcp/d7", kindId: "request", confidence: 1, overridden: true });
    expect(verdict.notes).toEqual([]);
  });

  it("limits the candidates to the chosen pack when only a pack is chosen", () => {
    offer(a2a, candidate(D2020_PACK, "result", 0.95));
    offer(mcp, candidate(D7_PACK, "result", 0.4, ["has result"]));
    const verdict = engine.session().validateValue(RESULT, {}, { packId: "test-mcp/d7" });
    expect(verdict).toMatchObject({ status: "valid", packId: "test-mcp/d7", confidence: 1, overridden: true, evidence: ["chosen by you", "has result"] });
  });

  it("is unrecognised when the chosen pack has no candidate for the value", () => {
    offer(a2a, candidate(D2020_PACK, "result", 0.95));
    const verdict = engine.session().validateValue(RESULT, {}, { packId: "test-mcp/d7" });
    expect(verdict).toMatchObject({ status: "unrecognised", overridden: true, evidence: ["Nothing in test-mcp/d7 matches this value."] });
  });

  it("is unrecognised for an unknown pack or kind", () => {
    offer(mcp, candidate(D7_PACK, "result", 0.95));
    const unknownPack = engine.session().validateValue(RESULT, {}, { packId: "mcp/1999-01-01" });
    expect(unknownPack).toMatchObject({ status: "unrecognised", overridden: true, evidence: ["Nothing in mcp/1999-01-01 matches this value."] });
    const unknownKind = engine.session().validateValue(RESULT, {}, { packId: "test-mcp/d7", kindId: "nope" });
    expect(unknownKind).toMatchObject({ status: "unrecognised", overridden: true });
  });
});
