import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { definitionsContainer } from "../../src/core/packs/mcp/document.ts";
import { MCP_VERSIONS, type McpVersion, packFor } from "../../src/core/packs/mcp/index.ts";
import { SchemaCompiler } from "../../src/core/schema/compiler.ts";
import type { SchemaPack } from "../../src/core/validation/types.ts";
import { describeWithReference, readReferenceFolder, readReferenceJson, referenceValidator, type ReferenceValidator } from "../helpers/reference.ts";

/**
 * Our MCP packs and upstream's schemas must give the same verdict on every corpus message and on
 * every upstream 2026-07-28 example, and that verdict must be the one the corpus expects.
 */

interface CorpusCase {
  readonly name: string;
  /** A kind id of the version's pack; its definition is what the message is checked against. */
  readonly kind?: string;
  /** Or a definition named directly, for values no kind covers (a batch, say). */
  readonly definition?: string;
  readonly valid: boolean;
  readonly note?: string;
  readonly message: unknown;
}

/** Where our verdict differs from upstream's on purpose; each is also stated in the pack's notes. */
const DELIBERATE: readonly { readonly versions: readonly McpVersion[]; readonly cases: readonly string[]; readonly reason: string; readonly note: string }[] = [
  {
    versions: MCP_VERSIONS,
    cases: ["error response with a null id (unreadable request)"],
    reason: "JSON-RPC 2.0 requires \"id\": null on an error answering a request whose id could not be read; upstream types the id as string or integer only.",
    note: "\"id\": null",
  },
  {
    versions: ["2026-07-28"],
    cases: [
      "tools/call result with an unknown content type",
      "tools/call result with an image lacking mimeType",
      "tools/call result without content",
      "tools/call result with annotation priority above 1",
      "resources/read result with contents lacking text and blob",
      "prompts/get result with a system role",
      "resource link without a name",
    ],
    reason:
      "upstream's InputRequiredResult accepts any resultType, so these broken results pass upstream as input_required results; ours requires resultType \"input_required\" there, as the specification's ResultType says.",
    note: "InputRequiredResult requires resultType",
  },
  {
    versions: ["2025-06-18", "2025-11-25", "2026-07-28"],
    cases: ["elicitation answer with a fractional number"],
    reason:
      "upstream's generated ElicitResult allows integer answers only; its TypeScript source types them as number, and a NumberSchema field of type \"number\" is answered with a decimal.",
    note: "ElicitResult content accepts any number",
  },
  {
    versions: ["2026-07-28"],
    cases: ["capabilities with a fractional experimental setting"],
    reason: "upstream's generated JSONValue allows only string, integer and boolean leaves; its TypeScript source (and JSON) allows any number and null.",
    note: "JSONValue",
  },
];

/** Upstream examples our pack rejects on purpose (upstream accepts them), with the reason. */
const EXAMPLE_DIFFERENCES: Readonly<Record<string, string>> = {
  "ReadResourceResultResponse/read-resource-result-response.json":
    "its result lacks ttlMs and cacheScope, which ReadResourceResult requires; upstream accepts it only as an InputRequiredResult, whose resultType it leaves open (see the InputRequiredResult difference above)",
};

const corpusDir = join(dirname(fileURLToPath(import.meta.url)), "../corpus/mcp");

function loadCorpus(version: McpVersion): CorpusCase[] {
  const parsed = JSON.parse(readFileSync(join(corpusDir, `${version}.json`), "utf8")) as { version: string; cases: CorpusCase[] };
  if (parsed.version !== version) throw new Error(`corpus file ${version}.json says it is ${parsed.version}`);
  return parsed.cases;
}

function definitionOf(pack: SchemaPack, c: CorpusCase): string {
  if (c.definition) return c.definition;
  const kind = pack.kinds.find((k) => k.id === c.kind);
  if (!kind) throw new Error(`${pack.id} has no kind "${String(c.kind)}" (case "${c.name}")`);
  return kind.definition;
}

/**
 * The upstream checks equivalent to one of our definitions, as [upstream definition, part of the
 * message] pairs that must all pass. Our composites map onto upstream's envelope plus its own
 * definition; everything else has the same name upstream.
 */
function upstreamChecks(definition: string, ourDefs: Record<string, unknown>, theirDefs: Record<string, unknown>, message: unknown): [string, unknown][] {
  if (definition === "ErrorResponse") return [["JSONRPCErrorResponse" in theirDefs ? "JSONRPCErrorResponse" : "JSONRPCError", message]];
  if (definition in theirDefs) return [[definition, message]];
  const parts = (ourDefs[definition] as { allOf?: { $ref?: string }[] } | undefined)?.allOf;
  if (definition.endsWith("Message") && parts) {
    return parts.map((part) => [String(part.$ref).slice(String(part.$ref).lastIndexOf("/") + 1), message]);
  }
  if (definition.endsWith("ResultResponse") && definition.slice(0, -"Response".length) in theirDefs) {
    const envelope = "JSONRPCResultResponse" in theirDefs ? "JSONRPCResultResponse" : "JSONRPCResponse";
    const result = message && typeof message === "object" ? (message as { result?: unknown }).result : undefined;
    return [
      [envelope, message],
      [definition.slice(0, -"Response".length), result],
    ];
  }
  throw new Error(`no upstream counterpart for our definition ${definition}`);
}

interface Versioned {
  readonly pack: SchemaPack;
  readonly ours: Record<string, unknown>;
  readonly theirs: Record<string, unknown>;
  readonly upstream: ReferenceValidator;
  readonly upstreamId: string;
}

function prepare(dir: string, version: McpVersion): Versioned {
  const pack = packFor(version);
  const container = definitionsContainer(version);
  const document = readReferenceJson(dir, "mcp", version, "schema.json") as Record<string, unknown>;
  // Upstream files carry no $id; the validator needs one to address their definitions.
  const upstreamId = `https://reference.invalid/mcp/${version}/schema.json`;
  return {
    pack,
    ours: pack.document[container] as Record<string, unknown>,
    theirs: document[container] as Record<string, unknown>,
    upstream: referenceValidator([{ ...document, $id: upstreamId }], pack.draft, pack.assertFormats),
    upstreamId,
  };
}

const compiler = new SchemaCompiler();

function verdicts(v: Versioned, definition: string, message: unknown): { ours: boolean; theirs: boolean; detail: string } {
  const first = compiler.firstIssue(v.pack, definition, message);
  const container = definitionsContainer(v.pack.version as McpVersion);
  const failed: string[] = [];
  for (const [name, part] of upstreamChecks(definition, v.ours, v.theirs, message)) {
    if (!v.upstream.valid(`${v.upstreamId}#/${container}/${name}`, part)) failed.push(`${name}: ${v.upstream.lastErrors()}`);
  }
  const ourFirst = first ? `${first.pointer} ${first.message}` : "valid";
  return { ours: first === undefined, theirs: failed.length === 0, detail: `ours: ${ourFirst}; upstream: ${failed.join(" | ") || "valid"}` };
}

describeWithReference("MCP packs agree with the upstream schemas", (dir) => {
  for (const version of MCP_VERSIONS) {
    const cases = loadCorpus(version);
    const valid = cases.filter((c) => c.valid).length;
    console.log(`MCP corpus ${version}: ${cases.length} messages (${valid} valid, ${cases.length - valid} invalid)`);
    describe(version, () => {
      const v = prepare(dir, version);
      for (const c of cases) {
        it(c.name, () => {
          const definition = definitionOf(v.pack, c);
          const { ours, theirs, detail } = verdicts(v, definition, c.message);
          const deliberate = DELIBERATE.find((d) => d.cases.includes(c.name) && d.versions.includes(version));
          expect(ours, `our verdict on "${c.name}" (${definition}); ${detail}`).toBe(c.valid);
          expect(theirs, `upstream verdict on "${c.name}" (${definition}); ${detail}`).toBe(deliberate ? !c.valid : c.valid);
        });
      }
    });
  }

  describe("2026-07-28 upstream examples", () => {
    const v = prepare(dir, "2026-07-28");
    // Each example folder is named after the definition its files are instances of.
    const folders = readdirSync(join(dir, "mcp", "2026-07-28", "examples"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    let count = 0;
    for (const folder of folders) {
      for (const [file, message] of readReferenceFolder(dir, "mcp", "2026-07-28", "examples", folder)) {
        count++;
        const name = `${folder}/${file}`;
        it(name, () => {
          expect(v.ours, `our pack has no definition ${folder}`).toHaveProperty([folder]);
          const { ours, theirs, detail } = verdicts(v, folder, message);
          expect(ours, detail).toBe(EXAMPLE_DIFFERENCES[name] === undefined);
          expect(theirs, detail).toBe(true);
        });
      }
    }
    console.log(`MCP 2026-07-28 upstream examples: ${count} messages for ${folders.length} definitions`);
  });

  it("states every deliberate difference in the pack's notes", () => {
    for (const difference of DELIBERATE) {
      for (const version of difference.versions) {
        expect(packFor(version).notes.some((note) => note.includes(difference.note)), `${version}: ${difference.reason}`).toBe(true);
      }
    }
  });
});
