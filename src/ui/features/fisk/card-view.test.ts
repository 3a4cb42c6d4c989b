import { describe, expect, it } from "vitest";
import type { AgentCard } from "../../../core/fisk/codec/index.ts";
import type { Verdict } from "../../../core/validation/types.ts";
import { behaviourBadges, canonicalJson, compareCards, discoverySummary, schemaText, toolsOf, verdictEvidence, verdictLine } from "./card-view.ts";
import { cardResult, VALID } from "./test-fakes.ts";

const card = (tools: unknown): AgentCard => ({ name: "a", version: "1", tools } as unknown as AgentCard);

describe("card view", () => {
  it("reads behaviour as a tri-state: absent is undeclared, not false", () => {
    expect(behaviourBadges({ read_only: true, destructive: false })).toEqual([
      { label: "read-only", state: "yes" },
      { label: "destructive", state: "no" },
      { label: "idempotent", state: "undeclared" },
      { label: "open-world", state: "undeclared" },
    ]);
    expect(behaviourBadges(undefined).every((b) => b.state === "undeclared")).toBe(true);
    expect(behaviourBadges("yes" as never).every((b) => b.state === "undeclared")).toBe(true);
  });

  it("keeps only tools that are objects with a string name", () => {
    expect(toolsOf(card([{ name: "ok" }, null, "x", { name: 3 }, { description: "no name" }])).map((t) => t.name)).toEqual(["ok"]);
    expect(toolsOf(card({ not: "an array" }))).toEqual([]);
    expect(toolsOf(null)).toEqual([]);
  });

  it("compares two cards by tool presence, schema content (not key order), description and behaviour", () => {
    const left = card([
      { name: "same", input_schema: { type: "object", properties: { a: {} } } },
      { name: "schema", input_schema: { type: "object" } },
      { name: "only_left", description: "x" },
      { name: "words", description: "one", behavior: { read_only: true } },
    ]);
    const right = card([
      { name: "same", input_schema: { properties: { a: {} }, type: "object" } },
      { name: "schema", input_schema: { type: "object", required: ["x"] } },
      { name: "only_right" },
      { name: "words", description: "two", behavior: { read_only: false } },
    ]);
    expect(compareCards(left, right)).toEqual([
      { name: "only_left", presence: "left", differs: [] },
      { name: "only_right", presence: "right", differs: [] },
      { name: "same", presence: "both", differs: [] },
      { name: "schema", presence: "both", differs: ["input schema"] },
      { name: "words", presence: "both", differs: ["description", "behaviour"] },
    ]);
    expect(canonicalJson({ b: [1, { d: 1, c: 2 }], a: null })).toBe('{"a":null,"b":[1,{"c":2,"d":1}]}');
    expect(schemaText(left, "only_left")).toContain("is assumed");
    expect(schemaText(left, "missing")).toBe("(no such tool)");
  });

  it("summarises every discovery outcome in words", () => {
    expect(discoverySummary(cardResult("alpha"))).toEqual({ tone: "ok", text: "Card of alpha 0.0.5 · Gen 2" });
    const base = { identity: "x", subject: "s", requestText: "", rttMs: 1 };
    expect(discoverySummary({ ...base, outcome: { kind: "no-such-agent" } }).text).toContain("(503)");
    expect(discoverySummary({ ...base, outcome: { kind: "refused", code: "400", description: "invalid request" } }).text).toBe(
      "Refused with micro error 400: invalid request",
    );
    expect(discoverySummary({ ...base, outcome: { kind: "timeout", timeoutMs: 300 } }).text).toMatch(/^No reply within 300 ms/);
    expect(discoverySummary({ ...base, outcome: { kind: "invalid", problem: "/tools: must be array" } })).toEqual({
      tone: "bad",
      text: "Not a valid discovery reply: /tools: must be array",
    });
  });

  it("describes a verdict and lists the evidence with each candidate's result", () => {
    expect(verdictLine(VALID)).toEqual({ tone: "ok", text: "valid fisk-ai Gen 2" });
    const invalid: Verdict = {
      ...VALID,
      status: "invalid",
      issues: [{ pointer: "/version", message: "must be string", severity: "error", source: "schema" }],
      candidates: [{ packId: "fisk-ai/gen1-v0.0.3", kindId: "discovery.reply", label: "Gen 1 v0.0.3", valid: false, firstIssue: { pointer: "/model", message: "not allowed", severity: "error", source: "schema" } }],
    };
    expect(verdictLine(invalid)).toEqual({ tone: "bad", text: "invalid fisk-ai Gen 2: 1 error(s)" });
    expect(verdictEvidence(invalid)).toEqual(["protocol is discovery.reply", "Gen 1 v0.0.3: invalid (not allowed)"]);
  });
});
