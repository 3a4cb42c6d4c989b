import { createHash } from "node:crypto";
import { mixedCapture } from "../../bench/capture.ts";
import { createValidationEngine, PROTOCOL_FAMILIES } from "../../src/core/packs/index.ts";
import { SchemaCompiler } from "../../src/core/schema/compiler.ts";
import { ParsedAhead, splitInput } from "../../src/core/validation/index.ts";
import { allSeedSets } from "./mutation-seeds.ts";
import { MutationGenerator } from "./mutations.ts";

/**
 * Every verdict of the validate benchmark's capture and of the mutation suite's seeds and
 * near-misses, serialised, for comparing two versions of the validator: a change meant to be only
 * faster must leave every line as it was. The capture goes through as the benchmark runs it (one
 * session, from the split text, parsed ahead) and, in part, value by value; the seeds and
 * near-misses each alone (as the mutation suite pastes them) and all through one session (so what
 * sessions learn counts).
 */

export interface DigestSection {
  readonly name: string;
  readonly count: number;
  readonly sha256: string;
}

export interface VerdictDigest {
  readonly sections: readonly DigestSection[];
  /** One line per verdict: the section's name, a tab, the verdict as JSON. */
  readonly lines: readonly string[];
}

export function verdictDigest(referenceDir: string | null): VerdictDigest {
  const sections: DigestSection[] = [];
  const lines: string[] = [];
  const add = (name: string, verdicts: readonly string[]): void => {
    const hash = createHash("sha256");
    for (const v of verdicts) hash.update(`${v}\n`);
    sections.push({ name, count: verdicts.length, sha256: hash.digest("hex") });
    for (const v of verdicts) lines.push(`${name}\t${v}`);
  };
  const compiler = new SchemaCompiler();
  const engine = createValidationEngine(compiler);

  const capture = mixedCapture(100_000);
  const captureSession = engine.session();
  const split = splitInput("capture.jsonl", capture.join("\n"));
  const ahead = new ParsedAhead(split.count, (i) => split.item(i));
  add("capture", Array.from({ length: split.count }, (_, i) => JSON.stringify(ahead.validate(captureSession, i))));
  const byValue = engine.session();
  add("capture-values", capture.slice(0, 20_000).map((text) => JSON.stringify(byValue.validateValue(JSON.parse(text)))));

  const sets = allSeedSets(compiler, referenceDir);
  const generator = new MutationGenerator(PROTOCOL_FAMILIES, compiler);
  const alone: string[] = [];
  const together: string[] = [];
  const shared = engine.session();
  for (const set of sets) {
    for (const seed of [...set.seeds, ...set.refused.map((r) => r.seed)]) {
      const made = generator.generate(seed);
      for (const text of [seed.text, ...[...made.mutants, ...made.excluded].map((m) => JSON.stringify(m.value))]) {
        alone.push(JSON.stringify(engine.session().validateText(text)));
        together.push(JSON.stringify(shared.validateText(text)));
      }
    }
  }
  add("seeds-alone", alone);
  add("seeds-one-session", together);
  return { sections, lines };
}
