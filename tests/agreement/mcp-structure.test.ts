import { expect, it } from "vitest";
import { buildDocument, definitionsContainer } from "../../src/core/packs/mcp/document.ts";
import { MCP_VERSIONS, type McpVersion } from "../../src/core/packs/mcp/versions.ts";
import { describeWithReference, readReferenceJson } from "../helpers/reference.ts";

/**
 * Our documents against upstream's, definition by definition, after removing what cannot change a
 * verdict (prose, empty keywords, keyword and member order). Everything upstream defines must
 * exist in ours with the same constraints, except the differences listed here with their reasons.
 */
const ELICITED_NUMBER =
  "ours accepts any number as an answer, as the specification's TypeScript types it (a NumberSchema field may ask for \"number\"); upstream's generated schema allows integers only";

const DELIBERATE: Readonly<Record<string, string>> = {
  "2025-06-18 ElicitResult": ELICITED_NUMBER,
  "2025-11-25 ElicitResult": ELICITED_NUMBER,
  "2026-07-28 ElicitResult": ELICITED_NUMBER,
  "2026-07-28 InputRequiredResult":
    "ours requires resultType \"input_required\" (the meaning ResultType gives it); upstream's any string lets every result pass as one",
  "2026-07-28 JSONValue":
    "upstream's generated schema allows only string, integer and boolean leaves; its TypeScript source (and JSON) allows every number and null",
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const NO_OPS = new Set(["description", "$comment"]);

/** A schema with prose and no-op keywords gone, refs by name, and order made canonical. */
function normalise(schema: Json): Json {
  if (Array.isArray(schema) || schema === null || typeof schema !== "object") return schema;
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (NO_OPS.has(key)) continue;
    if (key === "properties" && value && typeof value === "object" && !Array.isArray(value)) {
      const props = Object.entries(value).map(([name, sub]) => [name, normalise(sub)] as const);
      if (props.length > 0) out.properties = Object.fromEntries(props.sort(([a], [b]) => a.localeCompare(b)));
    } else if (key === "additionalProperties" && (value === true || (typeof value === "object" && value !== null && Object.keys(value).length === 0))) {
      continue;
    } else if (key === "$ref" && typeof value === "string") {
      out.$ref = value.slice(value.lastIndexOf("/") + 1);
    } else if ((key === "anyOf" || key === "allOf") && Array.isArray(value)) {
      out[key] = value.map(normalise).sort((a, b) => canonical(a).localeCompare(canonical(b)));
    } else if ((key === "required" || key === "enum" || key === "type") && Array.isArray(value)) {
      if (value.length > 0) out[key] = [...value].sort();
    } else {
      out[key] = normalise(value);
    }
  }
  const anyOf = out.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 1 && Object.keys(out).length === 1) return anyOf[0] ?? null;
  return out;
}

function canonical(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key] ?? null)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

/** Follows a lone `$ref`, so a named definition matches an inline copy of it. */
function inlineRef(schema: Json, defs: Record<string, Json>): Json {
  if (schema && typeof schema === "object" && !Array.isArray(schema) && Object.keys(schema).length === 1 && typeof schema.$ref === "string") {
    return defs[schema.$ref] ?? schema;
  }
  return schema;
}

/** Equal as written, or once a lone `$ref` on either side is followed. */
function equivalent(ours: Json, ourDefs: Record<string, Json>, theirs: Json, theirDefs: Record<string, Json>): boolean {
  if (canonical(ours) === canonical(theirs)) return true;
  return canonical(inlineRef(ours, ourDefs)) === canonical(inlineRef(theirs, theirDefs));
}

describeWithReference("MCP schema packs: structure against upstream", (dir) => {
  for (const version of MCP_VERSIONS) {
    it(`${version}: every upstream definition has an equivalent of ours`, () => {
      const upstream = readReferenceJson(dir, "mcp", version, "schema.json") as Record<string, Record<string, Json>>;
      const container = definitionsContainer(version);
      const theirs = Object.fromEntries(Object.entries(upstream[container] ?? {}).map(([name, schema]) => [name, normalise(schema)]));
      const document = buildDocument(version as McpVersion)[container] as Record<string, Json>;
      const mine = Object.fromEntries(Object.entries(document).map(([name, schema]) => [name, normalise(schema)]));
      expect(Object.keys(theirs).length).toBeGreaterThan(70);
      const problems: string[] = [];
      for (const [name, schema] of Object.entries(theirs)) {
        if (DELIBERATE[`${version} ${name}`]) continue;
        const counterpart = mine[name];
        if (counterpart === undefined) problems.push(`${name}: missing`);
        else if (!equivalent(counterpart, mine, schema, theirs)) {
          problems.push(`${name}:\n  ours   ${canonical(counterpart)}\n  theirs ${canonical(schema)}`);
        }
      }
      for (const key of Object.keys(DELIBERATE).filter((k) => k.startsWith(`${version} `))) {
        const name = key.slice(version.length + 1);
        const theirsSchema = theirs[name];
        const ours = mine[name];
        // A listed difference that no longer differs is stale and must go.
        if (theirsSchema !== undefined && ours !== undefined && equivalent(ours, mine, theirsSchema, theirs)) problems.push(`${name}: listed as deliberate but equal`);
      }
      expect(problems.join("\n")).toBe("");
    });
  }
});
