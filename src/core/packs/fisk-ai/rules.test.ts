import { describe, expect, it } from "vitest";
import type { Candidate, Issue, SchemaPack } from "../../validation/types.ts";
import { FISK_AI_GEN1_V003, FISK_AI_GEN2 } from "./build-pack.ts";
import { fiskAiNotes } from "./notes.ts";
import { MAX_BODY_BYTES, NAMESPACE } from "./protocol.ts";
import { fiskAiRules, isRfc3339, type RuleContext } from "./rules.ts";
import { utf8Length } from "./utf8.ts";

function chosen(pack: SchemaPack, kindId: string): Candidate {
  const kind = pack.kinds.find((k) => k.id === kindId);
  if (!kind) throw new Error(kindId);
  return { pack, kind, score: 0.95, evidence: [] };
}

const msg = (suffix: string, extra: Record<string, unknown> = {}) => ({
  protocol: `${NAMESPACE}.${suffix}`,
  id: "3t5isGXNwAMnEYYnWLeEdpomsCr",
  request: "3t5isGXNwAMnEYYnWLeEdpomsCr",
  conversation: "3t5isGXNwAMnEYYnWLeEdpomsCr",
  sequence: 0,
  time: "2026-08-21T09:14:05.00311728Z",
  sender: { name: "console-1" },
  ...extra,
});

const noContext: RuleContext = { optionCount: () => undefined };

function rules(pack: SchemaPack, kindId: string, value: Record<string, unknown>, text?: string, context = noContext): [string, string][] {
  const raw = text === undefined ? {} : { text };
  return fiskAiRules(value, chosen(pack, kindId), raw, context).map((i: Issue) => [i.rule ?? "", i.severity]);
}

describe("UTF-8 length", () => {
  it("matches an encoder, counting lone surrogates as U+FFFD", () => {
    for (const s of ["", "abc", "é", "€uro", "😀x", "\ud800", "a\udc00b", "日本語"]) {
      expect(utf8Length(s)).toBe(new TextEncoder().encode(s).length);
    }
  });
});

describe("the body cap", () => {
  const value = msg("tool.reply");
  it("allows exactly 786,432 bytes and refuses one more", () => {
    expect(rules(FISK_AI_GEN2, "tool.reply", value, "x".repeat(MAX_BODY_BYTES))).toEqual([]);
    expect(rules(FISK_AI_GEN2, "tool.reply", value, "x".repeat(MAX_BODY_BYTES + 1))).toEqual([["fisk-ai.body-size", "error"]]);
  });
  it("measures bytes, not characters", () => {
    const text = "é".repeat(MAX_BODY_BYTES / 2 + 1);
    const [issue] = fiskAiRules(value, chosen(FISK_AI_GEN2, "tool.reply"), { text }, noContext);
    expect(issue?.message).toContain("786,434 bytes");
  });
  it("is skipped when the text is not known", () => {
    expect(rules(FISK_AI_GEN2, "tool.reply", value)).toEqual([]);
  });
});

describe("RFC 3339 times", () => {
  it.each(["2026-08-21T09:14:05.00311728Z", "2026-08-21T09:14:05Z", "2026-08-21T11:14:05.5+02:00", "2024-02-29T00:00:00Z"])("accepts %s", (t) => {
    expect(isRfc3339(t)).toBe(true);
  });
  it.each(["2026-08-21 09:14:05Z", "2026-08-21t09:14:05z", "2026-02-30T00:00:00Z", "2026-08-21T24:00:00Z", "2026-08-21T09:14:05", "yesterday", "2026-08-21T09:14:05.Z"])(
    "refuses %s",
    (t) => {
      expect(isRfc3339(t)).toBe(false);
      expect(rules(FISK_AI_GEN2, "cancel", msg("cancel", { time: t }))).toEqual([["fisk-ai.time", "error"]]);
    },
  );
});

describe("Gen 1 ids a Gen 2 peer would refuse", () => {
  it("warn on Gen 1, where the schema is silent", () => {
    const value = msg("tool.request", { id: "a.b", request: "task.other", conversation: "c d", name: "x" });
    expect(rules(FISK_AI_GEN1_V003, "tool.request", value)).toEqual([
      ["fisk-ai.id-charset", "warning"],
      ["fisk-ai.request-id", "warning"],
      ["fisk-ai.conversation-charset", "warning"],
    ]);
    expect(rules(FISK_AI_GEN1_V003, "tool.request", msg("tool.request", { request: "x".repeat(65) }))).toEqual([["fisk-ai.request-id", "warning"]]);
    expect(rules(FISK_AI_GEN1_V003, "tool.request", msg("tool.request", { request: "x".repeat(64) }))).toEqual([]);
  });
  it("are left to the schema on Gen 2", () => {
    expect(rules(FISK_AI_GEN2, "tool.request", msg("tool.request", { request: "task.other" }))).toEqual([]);
  });
});

describe("stop reasons and codes", () => {
  it("warn on an unnamed but well-formed Gen 2 stop reason", () => {
    expect(rules(FISK_AI_GEN2, "result", msg("result", { stop_reason: "throttled" }))).toEqual([["fisk-ai.stop-reason", "warning"]]);
    expect(rules(FISK_AI_GEN2, "error", msg("error", { stop_reason: "tool_use", error: "x" }))).toEqual([["fisk-ai.stop-reason", "warning"]]);
    const [issue] = fiskAiRules(msg("result", { stop_reason: "end_trun" }), chosen(FISK_AI_GEN2, "result"), {}, noContext);
    expect(issue?.message).toContain("receivers accept it, StopReason.Valid() is false");
    for (const ok of ["end_turn", "suspended", "max_iterations", "Bad Shape", ""]) {
      expect(rules(FISK_AI_GEN2, "result", msg("result", { stop_reason: ok }))).toEqual([]);
    }
  });
  it("warn on a code fisk-ai does not define", () => {
    expect(rules(FISK_AI_GEN2, "error", msg("error", { error: "x", code: "capacity" }))).toEqual([]);
    expect(rules(FISK_AI_GEN2, "error", msg("error", { error: "x", code: "exploded" }))).toEqual([["fisk-ai.error-code", "warning"]]);
    expect(rules(FISK_AI_GEN1_V003, "error", msg("error", { error: "x", code: "exploded" }))).toEqual([["fisk-ai.error-code", "warning"]]);
    expect(rules(FISK_AI_GEN2, "tool.reply", msg("tool.reply", { code: "busy" }))).toEqual([["fisk-ai.error-code", "warning"]]);
  });
});

describe("answers", () => {
  const answer = (a: Record<string, unknown>) => msg("request.answer", { conversation_token: "t", answer: { tool_use_id: "u", ...a } });
  it("must fit the question kind", () => {
    expect(rules(FISK_AI_GEN2, "request.answer", answer({ kind: "approve", answer: "value", value: "x" }))).toEqual([["fisk-ai.answer-kind", "error"]]);
    expect(rules(FISK_AI_GEN2, "request.answer", answer({ kind: "select", answer: "value", value: "west" }))).toEqual([]);
    expect(rules(FISK_AI_GEN2, "request.answer", answer({ kind: "confirm", answer: "no_operator" }))).toEqual([]);
    expect(rules(FISK_AI_GEN2, "request.answer", answer({ kind: "confirm", answer: "confirmed" }))).toEqual([["fisk-ai.answer-value", "warning"]]);
  });
  it("select an option the question offered", () => {
    const context: RuleContext = { optionCount: (id) => (id === "q1" ? 2 : undefined) };
    const reply = (index: number, id = "q1") => msg("elicit.reply.select", { question_id: id, index });
    expect(rules(FISK_AI_GEN2, "elicit.reply.select", reply(1), undefined, context)).toEqual([]);
    expect(rules(FISK_AI_GEN2, "elicit.reply.select", reply(2), undefined, context)).toEqual([["fisk-ai.select-index", "error"]]);
    expect(rules(FISK_AI_GEN2, "elicit.reply.select", reply(9, "q2"), undefined, context)).toEqual([]);
  });
});

describe("notes", () => {
  const notes = (value: Record<string, unknown>, kind = "tool.reply") => fiskAiNotes(value, chosen(FISK_AI_GEN2, kind)).join("\n");
  it("say a failed or non-zero tool run is a result, not a protocol failure", () => {
    expect(notes(msg("tool.reply", { is_error: true, output: "timeout" }))).toContain("not a protocol failure");
    expect(notes(msg("tool.reply", { exec: { command: "stream info", exit_code: 1 } }))).toContain("exited with code 1");
    expect(notes(msg("tool.reply", { exec: { command: "stream info" } }))).toBe("");
  });
  it("explain a capacity refusal", () => {
    expect(notes(msg("tool.reply", { is_error: true, code: "capacity" }))).toMatch(/refused this one and nothing ran/);
  });
  it("mention refusals, unknown events and credentials", () => {
    expect(notes(msg("ack", { accepted: false, reason: "busy" }), "ack")).toContain("busy");
    expect(notes(msg("event.citation", { block: {} }), "event.*")).toContain("forwards it unchanged");
    expect(notes(msg("ack", { accepted: true, conversation_token: "t" }), "ack")).toContain("credential");
  });
});
