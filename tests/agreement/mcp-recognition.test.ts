import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { MCP_VERSIONS, type McpVersion, mcpFamily, packFor } from "../../src/core/packs/mcp/index.ts";
import { SchemaCompiler } from "../../src/core/schema/compiler.ts";
import type { Candidate, FamilySession } from "../../src/core/validation/types.ts";

/**
 * The corpus seen through the session, as the engine sees it: after an initialize pins the
 * version (and, for a response, after its request was seen), each message must be classified
 * as the kind the corpus names, in the corpus's version.
 */

interface CorpusCase {
  readonly name: string;
  readonly kind?: string;
  readonly valid: boolean;
  readonly message: unknown;
}

/** Kinds only a person can choose: nothing in their shape says what they are. */
const NOT_GUESSABLE = new Set(["ClientCapabilities"]);

/** Broken messages whose shape honestly reads as another kind. */
const READ_OTHERWISE: Readonly<Record<string, string>> = {
  "parse error object with the wrong code": "its code is -32600, so it reads as an InvalidRequestError",
};

const compiler = new SchemaCompiler();
const corpusDir = join(dirname(fileURLToPath(import.meta.url)), "../corpus/mcp");

function load(version: McpVersion): CorpusCase[] {
  return (JSON.parse(readFileSync(join(corpusDir, `${version}.json`), "utf8")) as { cases: CorpusCase[] }).cases;
}

function candidateFor(version: McpVersion, kindId: string): Candidate {
  const pack = packFor(version);
  const kind = pack.kinds.find((k) => k.id === kindId);
  if (!kind) throw new Error(`${pack.id} has no kind ${kindId}`);
  return { pack, kind, score: 1, evidence: [] };
}

/** The engine's rule: the first valid candidate within 0.25 of the top score. */
function choose(session: FamilySession, message: unknown): { top: Candidate | undefined; chosen: Candidate | undefined } {
  const sorted = [...session.recognise(message, {}).candidates].sort((a, b) => b.score - a.score);
  const top = sorted[0];
  const chosen = top ? sorted.find((c) => c.score >= top.score - 0.25 && compiler.isValid(c.pack, c.kind.definition, message)) : undefined;
  return { top, chosen };
}

/** A session that has seen this version's initialize exchange and, for a response, its request. */
function primed(version: McpVersion, c: CorpusCase): FamilySession {
  const session = mcpFamily.createSession();
  if (version !== "2026-07-28") {
    session.observe({ jsonrpc: "2.0", id: "init", result: { protocolVersion: version } }, candidateFor(version, "initialize:result"), true);
  }
  const kind = c.kind ?? "";
  const id = (c.message as { id?: unknown } | null)?.id;
  if (kind.endsWith(":result") && (typeof id === "string" || typeof id === "number")) {
    const method = kind === "task-created:result" ? "tools/call" : kind.slice(0, -":result".length);
    session.observe({ jsonrpc: "2.0", id, method }, candidateFor(version, `${method}:request`), true);
  }
  return session;
}

describe("MCP sessions classify the corpus", () => {
  for (const version of MCP_VERSIONS) {
    describe(version, () => {
      for (const c of load(version)) {
        if (!c.kind || NOT_GUESSABLE.has(c.kind)) continue;
        it(c.name, () => {
          const { top, chosen } = choose(primed(version, c), c.message);
          if (c.valid) {
            expect(chosen?.kind.id, JSON.stringify(top?.evidence)).toBe(c.kind);
            expect(chosen?.pack.version).toBe(version);
          } else {
            // Broken messages are still recognised as what they tried to be, so the report names the right kind.
            if (READ_OTHERWISE[c.name] === undefined) expect(top?.kind.id).toBe(c.kind);
            expect(chosen !== undefined && chosen.kind.id === c.kind && chosen.pack.version === version).toBe(false);
          }
        });
      }
    });
  }
});
