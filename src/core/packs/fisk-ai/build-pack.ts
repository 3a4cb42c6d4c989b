import type { MessageKind, SchemaPack } from "../../validation/types.ts";
import { GEN1_V002, GEN1_V003, GEN2, type Generation } from "./generations.ts";
import { GEN1_KINDS, GEN2_KINDS, type KindSpec } from "./protocol.ts";
import { messageDefs } from "./schema-messages.ts";
import { sharedDefs } from "./schema-parts.ts";

/** How these packs deliberately differ from upstream's schema files, and why. */
const COMMON_NOTES = [
  "One document per generation with every definition under $defs, where upstream ships one file per protocol id plus common.json; the facts (properties, types, required lists, enums, consts, patterns, bounds) are the same.",
  "The message kind is chosen from the protocol id by the family module, as upstream's validator does; a definition is never tried against a message of another id.",
  "Formats are annotations (assertFormats false), as upstream validates: RFC 3339 times with nanoseconds pass. fisk-ai's Go decoder still refuses a time that is not RFC 3339, so that is a rule (fisk-ai.time) rather than a schema failure.",
  "The 786,432-byte body cap is enforced before validation upstream; here it is a rule (fisk-ai.body-size) measured on the message text.",
];

const GEN1_NOTES = [
  "Gen 1 schemas put no character rules on id, request or conversation; Gen 2 peers do. Values a Gen 2 peer would refuse are warnings (fisk-ai.request-id, fisk-ai.id-charset, fisk-ai.conversation-charset), never errors, so Gen 1 verdicts match upstream.",
];

const GEN2_NOTES = [
  "Unknown event kinds (io.choria.fisk-ai.v1.event.<kind>, one segment) use the 'event (unknown kind)' definition, upstream's event.json fallback: the header and an object block are checked, nothing else.",
  "A stop_reason that fits the pattern but is not one of the eight named values is valid (receivers accept it) and gets a warning (fisk-ai.stop-reason), since StopReason.Valid() is false for it.",
  "Rules beyond the schema: an error or tool.reply code outside codes.go is a warning (fisk-ai.error-code); a request.answer whose answer does not fit its kind is an error (fisk-ai.answer-kind), as the server refuses it, and one naming a field it does not carry is a warning (fisk-ai.answer-value); an elicit.reply.select index past the options of a question seen earlier in the batch is an error (fisk-ai.select-index).",
];

function toKind(spec: KindSpec): MessageKind {
  return { id: spec.id, label: spec.label, definition: spec.definition, role: spec.role, direction: spec.direction };
}

/** Builds the schema pack of one generation. */
export function buildFiskAiPack(gen: Generation): SchemaPack {
  const document = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: `https://patchbay.dev/schemas/fisk-ai/${gen.version}.json`,
    title: `Patchbay schema for ${gen.label}`,
    $defs: { ...sharedDefs(gen), ...messageDefs(gen) },
  };
  const kinds = (gen.generation === 2 ? GEN2_KINDS : GEN1_KINDS).map(toKind);
  return {
    id: `fisk-ai/${gen.version}`,
    family: "fisk-ai",
    version: gen.version,
    label: gen.label,
    order: gen.order,
    draft: "2020-12",
    assertFormats: false,
    document,
    sources: gen.sources,
    notes: [...COMMON_NOTES, ...(gen.generation === 2 ? GEN2_NOTES : GEN1_NOTES)],
    kinds,
  };
}

export const FISK_AI_GEN1_V002 = buildFiskAiPack(GEN1_V002);
export const FISK_AI_GEN1_V003 = buildFiskAiPack(GEN1_V003);
export const FISK_AI_GEN2 = buildFiskAiPack(GEN2);

/** Oldest first. */
export const FISK_AI_PACKS: readonly SchemaPack[] = [FISK_AI_GEN1_V002, FISK_AI_GEN1_V003, FISK_AI_GEN2];
