import { describe, expect, it } from "vitest";
import type { Recognition } from "../../validation/types.ts";
import { FISK_AI_GEN1_V002, FISK_AI_GEN1_V003, FISK_AI_GEN2 } from "./build-pack.ts";
import { NAMESPACE } from "./protocol.ts";
import { type GenerationHint, recogniseFiskAi } from "./recognise.ts";

const msg = (suffix: string, extra: Record<string, unknown> = {}) => ({ protocol: `${NAMESPACE}.${suffix}`, id: "a", sender: { name: "x" }, ...extra });

/** `[pack version, kind id, score]` per candidate, best first. */
function summary(value: unknown, hint: GenerationHint = null): [string, string, number][] {
  return recogniseFiskAi(value, hint).candidates.map((c) => [c.pack.version, c.kind.id, c.score]);
}

const evidence = (r: Recognition): string => r.candidates[0]?.evidence.join(" | ") ?? "";

describe("recognising fisk-ai messages", () => {
  it("explains values that are not fisk-ai", () => {
    expect(recogniseFiskAi([1], null).reason).toContain("not a JSON object");
    expect(recogniseFiskAi({ jsonrpc: "2.0" }, null).reason).toBe("no fisk-ai protocol field");
    expect(recogniseFiskAi({ protocol: null }, null).reason).toContain("null");
    expect(recogniseFiskAi({ protocol: 7 }, null).reason).toContain("number 7");
    expect(recogniseFiskAi({ protocol: "mcp" }, null).reason).toContain('"mcp" is not a fisk-ai id');
  });

  it("names an unknown protocol id", () => {
    for (const id of ["bogus", "citation", "elicit.request.interrogate", "elicit.reply.maybe"]) {
      const r = recogniseFiskAi(msg(id), null);
      expect(r.candidates).toEqual([]);
      expect(r.reason).toBe(`unknown fisk-ai protocol id "${NAMESPACE}.${id}"`);
    }
  });

  it("maps Gen 2-only ids to the Gen 2 pack alone", () => {
    expect(summary(msg("event.tool_call"))).toEqual([["gen2", "event.tool_call", 0.95]]);
    expect(summary(msg("request.read"))).toEqual([["gen2", "request.read", 0.95]]);
    expect(summary(msg("elicit.reply.no_operator"))).toEqual([["gen2", "elicit.reply.no_operator", 0.95]]);
  });

  it("maps Gen 1-only ids to both Gen 1 packs, newest first", () => {
    expect(summary(msg("request"))).toEqual([
      ["gen1-v0.0.3", "request", 0.95],
      ["gen1-v0.0.2", "request", 0.94],
    ]);
    const event = recogniseFiskAi(msg("event", { block: { type: "text", text: "x" } }), null);
    expect(evidence(event)).toContain('block "type" is "text"');
  });

  it("offers both generations for a shared id with nothing to tell them apart, Gen 2 slightly ahead", () => {
    expect(summary(msg("tool.request", { name: "x" }))).toEqual([
      ["gen2", "tool.request", 0.95],
      ["gen1-v0.0.3", "tool.request", 0.94],
      ["gen1-v0.0.2", "tool.request", 0.93],
    ]);
  });

  it.each([
    ["tool.request", { traceparent: "00-x" }, "traceparent"],
    ["discovery.reply", { model: "m" }, "model"],
    ["discovery.reply", { telemetry: false }, "telemetry"],
    ["discovery.reply", { tools: [{ name: "a" }, { name: "b", behavior: {} }] }, "behavior"],
    ["tool.reply", { code: "capacity" }, "code"],
    ["ack", { conversation_token: "t" }, "conversation_token"],
    ["result", { trace_id: "t" }, "trace_id"],
    ["result", { usage: { cache_read_tokens: 1 } }, "cache_read_tokens"],
    ["error", { usage: {} }, "usage"],
  ])("pins Gen 2 for %s with %j", (kind, extra, word) => {
    const r = recogniseFiskAi(msg(kind, extra), null);
    expect(r.candidates.map((c) => [c.pack.version, c.score])).toEqual([
      ["gen2", 0.95],
      ["gen1-v0.0.3", 0.6],
      ["gen1-v0.0.2", 0.59],
    ]);
    expect(evidence(r)).toContain(word);
  });

  it("leans to Gen 1 for shared ids once the batch has shown Gen 1", () => {
    expect(summary(msg("tool.reply"), "gen1").map(([v, , s]) => [v, s])).toEqual([
      ["gen1-v0.0.3", 0.95],
      ["gen1-v0.0.2", 0.94],
      ["gen2", 0.93],
    ]);
    // Evidence still wins over the hint.
    expect(summary(msg("tool.reply", { code: "capacity" }), "gen1")[0]?.[0]).toBe("gen2");
  });

  it("takes an unnamed single-segment event kind as Gen 2's unknown event", () => {
    const r = recogniseFiskAi(msg("event.citation", { block: {} }), null);
    expect(summary(msg("event.citation"))).toEqual([["gen2", "event.*", 0.9]]);
    expect(evidence(r)).toContain('"citation"');
  });

  it("offers malformed event ids only as a low-score guess", () => {
    for (const id of ["event.", "event.text.evil"]) {
      expect(summary(msg(id))).toEqual([["gen2", "event.*", 0.2]]);
    }
    expect(summary(msg("event"))[0]?.[0]).toBe("gen1-v0.0.3");
  });

  it("hands each candidate a kind of its own pack", () => {
    for (const suffix of ["tool.reply", "event", "event.text", "event.zap"]) {
      for (const c of recogniseFiskAi(msg(suffix), null).candidates) {
        expect(c.pack.kinds).toContain(c.kind);
        expect([FISK_AI_GEN1_V002, FISK_AI_GEN1_V003, FISK_AI_GEN2]).toContain(c.pack);
      }
    }
  });
});
