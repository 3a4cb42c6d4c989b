import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createValidationEngine } from "../../../src/core/packs/index.ts";
import type { Family, Verdict } from "../../../src/core/validation/index.ts";
import { FISK_AI_CORPUS, entryText } from "../../corpus/fisk-ai/index.ts";

/**
 * Every family's corpus, run through the engine with ALL families loaded, as a capture would be:
 * each message must still be claimed by its own family (the per-family agreement tests load one
 * family at a time, so they cannot see one family's guesses crowding out another's).
 */
const corpusDir = join(dirname(fileURLToPath(import.meta.url)), "../../corpus");
const engine = createValidationEngine();

interface Case {
  readonly name: string;
  readonly message: unknown;
  readonly text?: string;
  /** The family that should claim it (an invalid message still has a family). */
  readonly family: Family;
}

function jsonCases(family: Family, file: string, list: "cases" | "messages"): Case[] {
  const doc = JSON.parse(readFileSync(join(corpusDir, family, file), "utf8")) as Record<string, { name: string; message: unknown }[]>;
  return doc[list]!.map((c) => ({ name: c.name, message: c.message, family }));
}

function runBatch(cases: readonly Case[]): Verdict[] {
  const session = engine.session();
  return cases.map((c) => session.validateText(c.text ?? JSON.stringify(c.message)));
}

const batches: [string, Case[]][] = [
  ...["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"].map((v): [string, Case[]] => [`MCP ${v}`, jsonCases("mcp", `${v}.json`, "cases")]),
  ...["v0.1.0", "v0.2", "v0.3.0", "v1.0"].map((v): [string, Case[]] => [`A2A ${v}`, jsonCases("a2a", `${v}.json`, "messages")]),
  [
    "fisk-ai",
    FISK_AI_CORPUS.filter((e) => Object.values(e.expect).some((x) => x !== "unknown")).map((e) => ({
      name: e.name,
      message: e.message,
      text: entryText(e),
      family: "fisk-ai" as const,
    })),
  ],
];

/** Messages another family may claim for a stated reason: the shape is genuinely ambiguous. */
const AMBIGUOUS = new Map<string, string>([
  ...["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"].map((v): [string, string] => [
    `MCP ${v}: ping answered with an array result`,
    "its request was already answered by the case before it, so nothing ties it to MCP, and an array result is a valid A2A tasks/pushNotificationConfig/list response",
  ]),
  [
    "MCP 2025-11-25: tasks/get request shaped like A2A (id, not taskId)",
    "the MCP corpus uses it as an invalid MCP tasks/get; with A2A loaded it is what it looks like, a valid A2A tasks/get",
  ],
]);

// The first batch compiles the validators of most kinds of every family, which takes seconds on a busy machine.
describe("with every family loaded, each corpus message is claimed by its own family", { timeout: 30_000 }, () => {
  for (const [label, cases] of batches) {
    it(`${label}: ${cases.length} messages`, () => {
      const verdicts = runBatch(cases);
      const wrong = cases.flatMap((c, i) => {
        const v = verdicts[i]!;
        if (v.family === c.family || v.status === "unparseable") return [];
        if (v.status === "unrecognised" && v.family === undefined) return [];
        if (AMBIGUOUS.has(`${label}: ${c.name}`)) return [];
        return [`${c.name}: claimed by ${v.family ?? "nobody"} as ${v.kindLabel ?? v.status}`];
      });
      expect(wrong).toEqual([]);
    });
  }
});
