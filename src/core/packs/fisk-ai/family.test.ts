import { describe, expect, it } from "vitest";
import { ValidationEngine } from "../../validation/engine.ts";
import { fiskAiFamily } from "./index.ts";
import { MAX_BODY_BYTES, NAMESPACE } from "./protocol.ts";

const engine = new ValidationEngine([fiskAiFamily]);

const msg = (suffix: string, extra: Record<string, unknown> = {}) => ({
  protocol: `${NAMESPACE}.${suffix}`,
  id: "3pZPPPP6UeP3C4DSA7Lc360a9Y6",
  request: "3xTNJFoBinF5aJXVuLkSIc47WQA",
  conversation: "3xTNJFoBinF5aJXVuLkSIc47WQA",
  sequence: 2,
  time: "2026-08-21T09:14:05.412870331Z",
  sender: { name: "nats-tools" },
  recipient: { name: "console-1" },
  ...extra,
});

const check = (value: unknown, session = engine.session()) => session.validateText(JSON.stringify(value));
const rulesOf = (v: { issues: readonly { rule?: string }[] }) => v.issues.map((i) => i.rule);

describe("the fisk-ai family in the engine", () => {
  it("is one family module with three packs, oldest first", () => {
    expect(fiskAiFamily.family).toBe("fisk-ai");
    expect(fiskAiFamily.label).toBe("fisk-ai");
    expect(fiskAiFamily.packs.map((p) => p.version)).toEqual(["gen1-v0.0.2", "gen1-v0.0.3", "gen2"]);
  });

  it("calls a capacity refusal a valid Gen 2 reply and explains it", () => {
    const v = check(msg("tool.reply", { is_error: true, output: "busy", code: "capacity" }));
    expect([v.status, v.packId, v.kindId]).toEqual(["valid", "fisk-ai/gen2", "tool.reply"]);
    expect(v.evidence.join(" ")).toContain("code");
    expect(v.notes.join(" ")).toContain("capacity");
  });

  it("calls a non-zero exit a valid reply with a note", () => {
    const v = check(msg("tool.reply", { output: "nope\n", exec: { command: "stream info", exit_code: 1 } }));
    expect(v.status).toBe("valid");
    expect(v.notes.join(" ")).toContain("not a protocol failure");
  });

  it("reports a valid error message as an error response", () => {
    const v = check(msg("error", { error: "the run suspended", code: "suspended", stop_reason: "suspended" }));
    expect([v.status, v.kindId]).toEqual(["error-response", "error"]);
  });

  it("falls back to Gen 1 when only Gen 1 accepts the message", () => {
    const v = check(msg("tool.request", { request: "task.other", name: "ping" }));
    expect([v.status, v.packId]).toEqual(["valid", "fisk-ai/gen1-v0.0.3"]);
    expect(rulesOf(v)).toEqual(["fisk-ai.request-id"]);
  });

  it("reports a traceparent-carrying request as Gen 2, invalid, when Gen 2 refuses it", () => {
    const v = check(msg("tool.request", { traceparent: "x", request: "task.other", name: "ping" }));
    expect([v.status, v.packId]).toEqual(["invalid", "fisk-ai/gen2"]);
    expect(v.issues[0]?.pointer).toBe("/request");
  });

  it("keeps an unknown event kind and says so", () => {
    const v = check(msg("event.citation", { block: { source: "rfc1", page: 12 } }));
    expect([v.status, v.kindId, v.kindLabel]).toEqual(["valid", "event.*", "event (unknown kind)"]);
    expect(v.notes.join(" ")).toContain("forwards it unchanged");
  });

  it("calls malformed event ids and unknown ids unrecognised, saying why", () => {
    const evil = check(msg("event.text.evil", { block: { text: "x" } }));
    expect(evil.status).toBe("unrecognised");
    expect(evil.issues[0]?.pointer).toBe("/protocol");
    const bogus = check(msg("bogus"));
    expect(bogus.status).toBe("unrecognised");
    expect(bogus.evidence).toEqual([`fisk-ai: unknown fisk-ai protocol id "${NAMESPACE}.bogus"`]);
    expect(check({ ...msg("cancel"), protocol: 7 }).evidence[0]).toContain("number 7");
  });

  it("learns a Gen 1 batch from a Gen 1-only id", () => {
    const session = engine.session();
    expect(check(msg("tool.reply", { output: "x" }), session).packId).toBe("fisk-ai/gen2");
    expect(check(msg("request", { prompt: "hi" }), session).packId).toBe("fisk-ai/gen1-v0.0.3");
    expect(check(msg("tool.reply", { output: "x" }), session).packId).toBe("fisk-ai/gen1-v0.0.3");
  });

  it("checks a select answer against the question seen earlier", () => {
    const session = engine.session();
    check(msg("elicit.request.select", { question_id: "q1", question: "Which?", options: ["east", "west"] }), session);
    expect(check(msg("elicit.reply.select", { question_id: "q1", index: 1 }), session).status).toBe("valid");
    const out = check(msg("elicit.reply.select", { question_id: "q1", index: 2 }), session);
    expect(out.status).toBe("invalid");
    expect(out.issues[0]?.message).toContain("not one of the 2 options");
  });

  it("refuses a body over the cap, placing the issue", () => {
    const big = msg("tool.reply", { output: "x".repeat(MAX_BODY_BYTES) });
    const v = check(big);
    expect(v.status).toBe("invalid");
    expect(rulesOf(v)).toEqual(["fisk-ai.body-size"]);
    expect(v.issues[0]?.line).toBe(1);
  });

  it("says nothing about values without a protocol field", () => {
    expect(fiskAiFamily.createSession().recognise({ jsonrpc: "2.0", method: "ping", id: 1 }, {}).candidates).toEqual([]);
  });
});
