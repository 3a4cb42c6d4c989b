/**
 * The fisk-ai agreement corpus: messages built in code, each with what every generation should
 * say about it. "unknown" means the generation has no schema for the protocol id (upstream gives
 * ErrUnknownProtocol; the family offers no candidate from that generation's pack).
 */

export type GenVersion = "gen1-v0.0.2" | "gen1-v0.0.3" | "gen2";
export const GEN_VERSIONS: readonly GenVersion[] = ["gen1-v0.0.2", "gen1-v0.0.3", "gen2"];

export type Expected = "valid" | "invalid" | "unknown";

export interface CorpusEntry {
  /** Unique; used in test titles and in the deliberate-differences table. */
  readonly name: string;
  /** Where the case comes from: a section of the protocol notes, or "extra". */
  readonly source: string;
  readonly message: unknown;
  /** The wire text, when it matters (the body cap); otherwise compact JSON of `message`. */
  readonly text?: string;
  /** The kind id the family should choose wherever the verdict is not "unknown". */
  readonly kind: string | null;
  readonly expect: Readonly<Partial<Record<GenVersion, Expected>>>;
  /** Rule ids our checks must raise as warnings where the verdict is "valid". */
  readonly warnings?: readonly string[];
  /** A rule that makes the message invalid outside JSON Schema (upstream refuses it before or after validating). */
  readonly errorRule?: string;
}

/** The same verdict in every generation. */
export const everywhere = (verdict: Expected): Record<GenVersion, Expected> => ({ "gen1-v0.0.2": verdict, "gen1-v0.0.3": verdict, gen2: verdict });

/** A Gen 2-only id: Gen 1 has no schema for it. */
export const gen2Only = (verdict: Expected): Record<GenVersion, Expected> => ({ "gen1-v0.0.2": "unknown", "gen1-v0.0.3": "unknown", gen2: verdict });

/** A Gen 1-only id: Gen 2 has no schema for it. */
export const gen1Only = (verdict: Expected): Record<GenVersion, Expected> => ({ "gen1-v0.0.2": verdict, "gen1-v0.0.3": verdict, gen2: "unknown" });

/** A shared id with one verdict for Gen 1 and another for Gen 2. */
export const split = (gen1: Expected, gen2: Expected): Record<GenVersion, Expected> => ({ "gen1-v0.0.2": gen1, "gen1-v0.0.3": gen1, gen2 });

export function entry(name: string, source: string, kind: string | null, expect: Partial<Record<GenVersion, Expected>>, message: unknown, more: Partial<CorpusEntry> = {}): CorpusEntry {
  return { name, source, kind, expect, message, ...more };
}
