import { beforeEach, describe, expect, it } from "vitest";
import { SchemaCompiler } from "../schema/compiler.ts";
import { type ValidationEngine } from "./engine.ts";
import { locateIssues } from "./locate-issues.ts";
import { candidate, D2020_PACK, D7_PACK, ruleIssue, type FakeFamily, twoFamilyEngine } from "./test-packs.ts";
import type { Issue } from "./types.ts";

const compiler = new SchemaCompiler();
let mcp: FakeFamily;
let a2a: FakeFamily;
let engine: ValidationEngine;

beforeEach(() => {
  ({ mcp, a2a, engine } = twoFamilyEngine(compiler));
});

function at(issue: Issue | undefined): [number | undefined, number | undefined] {
  return [issue?.line, issue?.column];
}

describe("validateText", () => {
  it("calls text that is not JSON unparseable, at the line and column of the error", () => {
    const verdict = engine.session().validateText('{\n  "a": 1,\n  "b": }');
    expect(verdict.status).toBe("unparseable");
    expect(verdict.confidence).toBe(0);
    expect(verdict.issues).toHaveLength(1);
    expect(verdict.issues[0]).toMatchObject({ pointer: "", severity: "error", source: "syntax", line: 3, column: 8 });
    expect(verdict.issues[0]?.message).toMatch(/^Not JSON: /);
  });

  it("reports empty text and trailing garbage as unparseable", () => {
    expect(engine.session().validateText("").status).toBe("unparseable");
    const trailing = engine.session().validateText('{"a":1}\nx');
    expect(trailing.status).toBe("unparseable");
    expect(at(trailing.issues[0])).toEqual([2, 1]);
  });

  it("places schema issues at the value in the text", () => {
    mcp.behaviour.recognise = () => ({ candidates: [candidate(D7_PACK, "request", 0.95)] });
    const text = '{\n  "jsonrpc": "2.0",\n  "id": 1.5,\n  "method": "ping"\n}';
    const verdict = engine.session().validateText(text);
    expect(verdict.status).toBe("invalid");
    expect(verdict.issues[0]?.pointer).toBe("/id");
    expect(at(verdict.issues[0])).toEqual([3, 9]);
  });

  it("places an unexpected property at its key", () => {
    mcp.behaviour.recognise = () => ({ candidates: [candidate(D7_PACK, "strict", 0.95)] });
    const verdict = engine.session().validateText('{\n  "name": "a",\n    "extra": {"deep": [1, 2]}\n}');
    expect(verdict.issues[0]).toMatchObject({ pointer: "/extra", keyword: "additionalProperties", line: 3, column: 5 });
  });

  it("places an unevaluated property at its key too", () => {
    a2a.behaviour.recognise = () => ({ candidates: [candidate(D2020_PACK, "closed", 0.95)] });
    const verdict = engine.session().validateText('{"a": 1, "b": 2}');
    expect(verdict.issues[0]).toMatchObject({ pointer: "/b", keyword: "unevaluatedProperties", line: 1, column: 10 });
  });

  it("places a missing property at the object that lacks it, and rule issues at their pointer", () => {
    mcp.behaviour.recognise = () => ({ candidates: [candidate(D7_PACK, "request", 0.95)] });
    mcp.behaviour.check = () => [ruleIssue("/id", "test.id")];
    const verdict = engine.session().validateText('\n  {"jsonrpc": "2.0", "id": 7}');
    expect(verdict.issues.map((i) => [i.keyword ?? i.rule, i.line, i.column])).toEqual([
      ["required", 2, 3],
      ["test.id", 2, 28],
    ]);
  });

  it("gives no positions when validating a value without its text", () => {
    mcp.behaviour.recognise = () => ({ candidates: [candidate(D7_PACK, "request", 0.95)] });
    const verdict = engine.session().validateValue({ jsonrpc: "2.0", id: 1.5, method: "ping" });
    expect(verdict.issues[0]?.line).toBeUndefined();
  });

  it("passes the text to recognise() as raw", () => {
    const texts: (string | undefined)[] = [];
    mcp.behaviour.recognise = (_, raw) => {
      texts.push(raw.text);
      return { candidates: [] };
    };
    engine.session().validateText(' {"a": 1} ');
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.every((t) => t === ' {"a": 1} ')).toBe(true);
  });
});

describe("hostile input", () => {
  it("refuses nesting beyond the depth limit with a clear verdict, not a stack overflow", () => {
    let called = false;
    mcp.behaviour.recognise = () => {
      called = true;
      return { candidates: [] };
    };
    const arrays = engine.session().validateText("[".repeat(5000) + "]".repeat(5000));
    expect(arrays.status).toBe("unparseable");
    expect(arrays.issues[0]?.message).toMatch(/Nesting is deeper than the limit/);
    expect(at(arrays.issues[0])).toEqual([1, 1001]);
    const objects = engine.session().validateText('{"a":'.repeat(5000) + "1" + "}".repeat(5000));
    expect(objects.status).toBe("unparseable");
    expect(called).toBe(false);
  });

  it("validates nesting just under the limit against a recursive schema", () => {
    mcp.behaviour.recognise = () => ({ candidates: [candidate(D7_PACK, "deep", 0.95)] });
    expect(engine.session().validateText("[".repeat(900) + "]".repeat(900)).status).toBe("valid");
    const bad = engine.session().validateText("[".repeat(900) + "1" + "]".repeat(900));
    expect(bad.status).toBe("invalid");
    expect(bad.issues[0]?.column).toBe(901);
  });

  it("gives a verdict, not a RangeError, for a deeply nested parsed value", () => {
    mcp.behaviour.recognise = () => ({ candidates: [candidate(D7_PACK, "deep", 0.95)] });
    let value: unknown = [];
    for (let i = 0; i < 5000; i++) value = [value];
    expect(() => engine.session().validateValue(value)).not.toThrow();
  });

  it("validates a 2 MB message to the end", () => {
    mcp.behaviour.recognise = () => ({ candidates: [candidate(D7_PACK, "request", 0.95)] });
    const blob = "x".repeat(2 * 1024 * 1024);
    const text = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { blob } });
    expect(engine.session().validateText(text).status).toBe("valid");
  });

  it("locates an error at the end of a 2 MB message with many members", () => {
    mcp.behaviour.recognise = () => ({ candidates: [candidate(D7_PACK, "strict", 0.95)] });
    const tags = Array.from({ length: 200_000 }, (_, i) => `t${i}`);
    const text = `{"name": "a", "tags": [\n${tags.map((t) => JSON.stringify(t)).join(",\n")},\n42]}`;
    expect(text.length).toBeGreaterThan(2_000_000);
    const verdict = engine.session().validateText(text);
    expect(verdict.status).toBe("invalid");
    expect(verdict.issues).toEqual([expect.objectContaining({ pointer: "/tags/200000", line: 200_002, column: 1 })]);
  });
});

describe("locateIssues", () => {
  it("adds positions, keeps ones already set, and is cheap for no issues", () => {
    expect(locateIssues("{", [])).toEqual([]);
    const placed: Issue = { pointer: "/a", message: "m", severity: "error", source: "rule", line: 9, column: 9 };
    const issues = locateIssues('{"a": [1, {"b": true}]}', [placed, { ...placed, pointer: "/a/1/b", line: undefined, column: undefined }]);
    expect(issues.map(at)).toEqual([
      [9, 9],
      [1, 17],
    ]);
  });

  it("falls back to the nearest existing ancestor for a pointer not in the text", () => {
    const [issue] = locateIssues('{"a": {"b": 1}}', [{ pointer: "/a/zz", message: "m", severity: "error", source: "rule" }]);
    expect(at(issue)).toEqual([1, 7]);
  });
});
