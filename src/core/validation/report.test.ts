import { describe, expect, it } from "vitest";
import { SchemaCompiler } from "../schema/compiler.ts";
import type { BatchItem } from "./batch-input.ts";
import { ValidationEngine } from "./engine.ts";
import {
  buildReport,
  emptyStatusCounts,
  filePosition,
  firstIssue,
  isFailure,
  itemPlace,
  judgedBy,
  judgedText,
  REPORT_FORMAT,
  REPORT_VERSION,
  summarise,
  validateItem,
  verdictLine,
} from "./report.ts";
import { candidate, D7_PACK, fakeFamily } from "./test-packs.ts";
import type { Issue, Verdict, VerdictStatus } from "./types.ts";

function verdict(status: VerdictStatus, extra: Partial<Verdict> = {}): Verdict {
  return { status, confidence: 0.9, evidence: [], issues: [], notes: [], candidates: [], overridden: false, ...extra };
}

const ISSUE: Issue = { pointer: "/id", message: "The id must be a string or an integer, not null.", severity: "error", source: "rule", line: 1, column: 27 };
const INVALID = verdict("invalid", {
  family: "mcp",
  packId: "mcp/x",
  packLabel: "MCP 2025-06-18",
  version: "2025-06-18",
  kindId: "ping",
  kindLabel: "ping request",
  versionBasis: "negotiated",
  validIn: [],
  evidence: ['method is "ping"'],
  issues: [ISSUE],
});

describe("summaries", () => {
  it("counts verdicts by status and by family", () => {
    const summary = summarise([
      verdict("valid", { family: "mcp" }),
      verdict("valid", { family: "a2a" }),
      verdict("error-response", { family: "mcp" }),
      INVALID,
      verdict("unrecognised"),
      verdict("unparseable"),
    ]);
    expect(summary).toEqual({
      total: 6,
      byStatus: { valid: 2, "error-response": 1, invalid: 1, unrecognised: 1, unparseable: 1 },
      byFamily: { mcp: 3, a2a: 1 },
    });
    expect(summarise([])).toEqual({ total: 0, byStatus: emptyStatusCounts(), byFamily: {} });
  });

  it("gives a fresh zeroed count each time", () => {
    const a = emptyStatusCounts();
    a.valid++;
    expect(emptyStatusCounts().valid).toBe(0);
  });

  it("treats only invalid, unrecognised and unparseable as failures", () => {
    expect((["valid", "error-response", "invalid", "unrecognised", "unparseable"] as const).map(isFailure)).toEqual([false, false, true, true, true]);
  });

  it("takes the first issue, if any", () => {
    expect(firstIssue(INVALID)).toBe(ISSUE);
    expect(firstIssue(verdict("valid"))).toBeUndefined();
  });
});

describe("lines for people", () => {
  const item: BatchItem = { source: "capture.jsonl", position: 3, line: 4, text: "" };

  it("places an item by file, index and line when the file holds several", () => {
    expect(itemPlace(item, true)).toBe("capture.jsonl #3 (line 4)");
    expect(itemPlace(item, false)).toBe("capture.jsonl");
    expect(itemPlace({ source: "s.har", position: 1, label: "entry 0 response (POST /mcp)", text: "" }, true)).toBe("s.har #1 [entry 0 response (POST /mcp)]");
  });

  it("places a problem in the file: a message's line and column, shifted by where the message starts", () => {
    const issue = { pointer: "/id", message: "x", severity: "error", source: "rule", line: 2, column: 5 } as const;
    expect(filePosition({ source: "a.json", text: "", line: 10, column: 7 }, issue)).toEqual({ line: 11, column: 5 });
    expect(filePosition({ source: "a.json", text: "", line: 10, column: 7 }, { ...issue, line: 1 })).toEqual({ line: 10, column: 11 });
    expect(filePosition({ source: "a.har", text: "" }, issue)).toEqual({ line: 2, column: 5 });
    expect(filePosition({ source: "a.har", text: "" }, { ...issue, line: undefined })).toBeUndefined();
  });

  it("says where, what status, what kind, and the first problem", () => {
    expect(verdictLine(item, INVALID, true)).toBe(
      "capture.jsonl #3 (line 4): invalid: ping request, MCP 2025-06-18 (the version earlier messages agreed): /id: The id must be a string or an integer, not null. (at 4:27)",
    );
    const whole: Issue = { pointer: "", message: "Not JSON: Unexpected end of input", severity: "error", source: "syntax" };
    expect(verdictLine({ source: "x.json", text: "" }, verdict("unparseable", { issues: [whole] }), false)).toBe(
      "x.json: unparseable: Not JSON: Unexpected end of input",
    );
  });

  it("names the kind and version judged by, and why that version", () => {
    const base = { family: "a2a", packId: "a2a/v0.3.0", packLabel: "A2A v0.3.0", version: "v0.3.0", kindId: "card", kindLabel: "Agent Card" } as const;
    expect(judgedText(verdict("invalid", { ...base, versionBasis: "declared" }))).toBe("Agent Card, A2A v0.3.0 (the version the message declares)");
    expect(judgedText(verdict("valid", { ...base, versionBasis: "chosen", validIn: ["v0.3.0"] }))).toBe("Agent Card, A2A v0.3.0 (the version you chose)");
    expect(judgedText(verdict("valid", { ...base, versionBasis: "evidence", validIn: ["v0.2.5", "v0.3.0"] }))).toBe(
      "Agent Card, A2A v0.3.0 (no version declared; valid in v0.2.5 and v0.3.0)",
    );
    expect(judgedText(verdict("valid", { ...base, versionBasis: "evidence", validIn: ["a", "b", "c"] }))).toBe("Agent Card, A2A v0.3.0 (no version declared; valid in 3 versions, a to c)");
    expect(judgedText(verdict("invalid", { ...base, versionBasis: "evidence", validIn: [] }))).toBe(
      "Agent Card, A2A v0.3.0 (no version declared; judged by the version nearest to passing)",
    );
    expect(judgedText(verdict("unrecognised"))).toBe("");
    expect(judgedBy(INVALID)).toEqual({
      family: "mcp",
      packId: "mcp/x",
      kindId: "ping",
      kindLabel: "ping request",
      version: "2025-06-18",
      basis: "negotiated",
      validIn: [],
      evidence: ['method is "ping"'],
    });
  });

  it("falls back to the evidence when there is no issue", () => {
    const miss = verdict("unrecognised", { evidence: ["MCP: not JSON-RPC"] });
    expect(verdictLine({ source: "x.json", text: "" }, miss, false)).toBe("x.json: unrecognised: MCP: not JSON-RPC");
    expect(verdictLine({ source: "x.json", text: "" }, verdict("unrecognised"), false)).toBe("x.json: unrecognised: ");
  });
});

describe("validateItem", () => {
  const family = fakeFamily("mcp", [D7_PACK], { recognise: () => ({ candidates: [candidate(D7_PACK, "request", 0.95)] }) });
  const session = new ValidationEngine([family], new SchemaCompiler()).session();

  it("validates an item's text", () => {
    expect(validateItem(session, { source: "a", text: '{"jsonrpc":"2.0","id":1,"method":"ping"}' }).status).toBe("valid");
  });

  it("makes an unreadable item unparseable with its reason", () => {
    expect(validateItem(session, { source: "a", text: "", error: "The payload is not UTF-8 text." })).toEqual({
      status: "unparseable",
      confidence: 0,
      evidence: [],
      issues: [{ pointer: "", message: "The payload is not UTF-8 text.", severity: "error", source: "syntax" }],
      notes: [],
      candidates: [],
      overridden: false,
    });
  });
});

describe("buildReport", () => {
  it("is a versioned document of inputs, summary and placed messages", () => {
    const items: BatchItem[] = [
      { source: "cap.jsonl", position: 0, line: 1, text: "{}" },
      { source: "cap.har", position: 0, label: "entry 0 request (POST /)", text: "{}" },
      { source: "one.json", text: "{}" },
    ];
    const valid = verdict("valid", { family: "a2a" });
    const report = buildReport(
      [
        { source: "cap.jsonl", format: "jsonl", messages: 1, notes: [] },
        { source: "cap.har", format: "har", messages: 1, notes: ["1 HAR body was not JSON and was skipped."] },
      ],
      [
        { item: items[0]!, verdict: INVALID },
        { item: items[1]!, verdict: valid },
        { item: items[2]!, verdict: valid },
      ],
      Date.UTC(2025, 0, 2, 3, 4, 5),
    );
    expect(report.format).toBe(REPORT_FORMAT);
    expect(REPORT_FORMAT).toBe("patchbay.validation-report");
    expect(report.version).toBe(REPORT_VERSION);
    expect(report.generatedAt).toBe("2025-01-02T03:04:05.000Z");
    expect(report.inputs).toHaveLength(2);
    expect(report.summary).toMatchObject({ total: 3, byStatus: { invalid: 1, valid: 2 }, byFamily: { mcp: 1, a2a: 2 } });
    expect(report.messages[0]).toEqual({ source: "cap.jsonl", position: 0, line: 1, ...INVALID, judgedBy: judgedBy(INVALID) });
    expect(report.messages[0]!.judgedBy).toMatchObject({ family: "mcp", version: "2025-06-18", basis: "negotiated" });
    expect(report.messages[1]).toEqual({ source: "cap.har", position: 0, label: "entry 0 request (POST /)", ...valid, judgedBy: null });
    expect(report.messages[2]).toEqual({ source: "one.json", ...valid, judgedBy: null });
    expect(Object.keys(report.messages[2]!)).not.toContain("position");
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });
});
