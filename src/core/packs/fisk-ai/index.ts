import { isJsonObject } from "../../json/index.ts";
import type { Candidate, FamilyModule, FamilySession } from "../../validation/types.ts";
import { FISK_AI_PACKS } from "./build-pack.ts";
import { fiskAiNotes } from "./notes.ts";
import { generationOfKind, type GenerationHint, recogniseFiskAi } from "./recognise.ts";
import { fiskAiRules, type RuleContext } from "./rules.ts";

export { buildFiskAiPack, FISK_AI_GEN1_V002, FISK_AI_GEN1_V003, FISK_AI_GEN2, FISK_AI_PACKS } from "./build-pack.ts";
export { isRfc3339 } from "./rules.ts";
export { utf8Length } from "./utf8.ts";

/** Questions remembered per batch; a bound keeps a huge capture from growing the map forever. */
const MAX_QUESTIONS = 10_000;

function createSession(): FamilySession {
  let hint: GenerationHint = null;
  const options = new Map<string, number>();
  const context: RuleContext = { optionCount: (id) => options.get(id) };

  return {
    recognise: (value) => recogniseFiskAi(value, hint),
    check: (value, chosen, raw) => fiskAiRules(value, chosen, raw, context),
    notes: (value, chosen) => fiskAiNotes(value, chosen),
    observe(value: unknown, chosen: Candidate, valid: boolean): void {
      if (!valid || !isJsonObject(value)) return;
      const learned = generationOfKind(chosen.pack, chosen.kind.id);
      if (learned) hint = learned;
      if (chosen.kind.id === "elicit.request.select" && typeof value.question_id === "string" && Array.isArray(value.options)) {
        if (options.size >= MAX_QUESTIONS) options.clear();
        options.set(value.question_id, value.options.length);
      }
    },
  };
}

/** fisk-ai (A2A over NATS): Gen 1 (v0.0.1–v0.0.3) and Gen 2 (main), told apart by protocol id and fields. */
export const fiskAiFamily: FamilyModule = {
  family: "fisk-ai",
  label: "fisk-ai",
  packs: FISK_AI_PACKS,
  createSession,
};
