/**
 * Diagnostic for the validate bench: where the pipeline's time goes, per message template and
 * broken or not, so a change can be aimed at the costly path. It prints microseconds per message
 * for JSON.parse alone and for the whole pipeline on each group. Not a gate; no goal.
 */
import { createValidationEngine } from "../src/core/packs/index.ts";
import { type ValidationEngine } from "../src/core/validation/index.ts";
import { isSpoilt, mixedCapture, TEMPLATE_COUNT } from "./capture.ts";
import { option } from "./bench-stats.ts";

/**
 * Microseconds per message for `work` over `lines`, best of `rounds` (a diagnostic wants the floor
 * of the noise). `fresh` runs before each round, untimed.
 */
function perMessage(lines: readonly string[], rounds: number, work: (line: string) => void, fresh = (): void => {}): number {
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    fresh();
    const start = performance.now();
    for (const line of lines) work(line);
    best = Math.min(best, performance.now() - start);
  }
  return (best * 1000) / lines.length;
}

/** The whole pipeline after the split, with a fresh session each round as in the main bench. */
function pipelineOver(engine: ValidationEngine, lines: readonly string[], rounds: number): number {
  let session = engine.session();
  return perMessage(lines, rounds, (line) => session.validateText(line), () => (session = engine.session()));
}

export async function run(args: readonly string[]): Promise<number> {
  const count = option(args, "--count", 100_000);
  const rounds = option(args, "--rounds", 5);
  const lines = mixedCapture(count);
  const engine = createValidationEngine();
  pipelineOver(engine, lines, 1);
  const out: string[] = [`validate parts: ${count} messages, best of ${rounds} rounds, µs per message`];
  const groups: [string, string[]][] = [["all", lines]];
  for (let t = 0; t < TEMPLATE_COUNT; t++) {
    groups.push([`template ${t} ok`, lines.filter((_, i) => i % TEMPLATE_COUNT === t && !isSpoilt(i))]);
    groups.push([`template ${t} broken`, lines.filter((_, i) => i % TEMPLATE_COUNT === t && isSpoilt(i))]);
  }
  for (const [name, group] of groups) {
    const parse = perMessage(group, rounds, (line) => JSON.parse(line));
    const whole = pipelineOver(engine, group, rounds);
    out.push(`  ${name.padEnd(20)} n=${String(group.length).padStart(6)}  parse ${parse.toFixed(2).padStart(6)}  pipeline ${whole.toFixed(2).padStart(6)}`);
  }
  process.stdout.write(`${out.join("\n")}\n`);
  return 0;
}
