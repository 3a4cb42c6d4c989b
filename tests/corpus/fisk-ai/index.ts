import { CODEC_CASE_ENTRIES } from "./codec-cases.ts";
import { CROSS_GENERATION_ENTRIES } from "./cross-generation.ts";
import { EXAMPLE_ENTRIES } from "./examples.ts";
import { GEN1_KIND_ENTRIES } from "./gen1-kinds.ts";
import { GEN2_KIND_ENTRIES } from "./gen2-kinds.ts";
import { SCHEMA_CASE_ENTRIES } from "./schema-cases.ts";
import type { CorpusEntry } from "./types.ts";

export { GEN_VERSIONS } from "./types.ts";
export type { CorpusEntry, Expected, GenVersion } from "./types.ts";

/** Every fisk-ai corpus entry; names are unique. */
export const FISK_AI_CORPUS: readonly CorpusEntry[] = [
  ...EXAMPLE_ENTRIES,
  ...SCHEMA_CASE_ENTRIES,
  ...CODEC_CASE_ENTRIES,
  ...GEN2_KIND_ENTRIES,
  ...GEN1_KIND_ENTRIES,
  ...CROSS_GENERATION_ENTRIES,
];

/** The wire text of an entry: its own, or compact JSON as fisk-ai sends it. */
export const entryText = (entry: CorpusEntry): string => entry.text ?? JSON.stringify(entry.message);
