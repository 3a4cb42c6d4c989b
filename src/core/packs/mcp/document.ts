import { definitionContainer } from "../../schema/schema-document.ts";
import { baseDefs } from "./defs-base.ts";
import { clientDefs } from "./defs-client.ts";
import { contentDefs } from "./defs-content.ts";
import { lifecycleDefs } from "./defs-lifecycle.ts";
import { serverDefs } from "./defs-server.ts";
import { ENVELOPED, STATELESS } from "./defs-shapes.ts";
import { unionDefs } from "./defs-unions.ts";
import { REQUEST_METHODS, messageDefinition, responseDefinition } from "./methods.ts";
import { allOf, anyOf, lit, type SchemaNode, obj, ref, resolve, type ResolveContext } from "./schema-dsl.ts";
import { atLeast, draftFor, type McpVersion } from "./versions.ts";

/** Every definition, written once; each version's document is resolved from this table. */
const DEFINITIONS: Readonly<Record<string, SchemaNode>> = {
  ...baseDefs,
  ...contentDefs,
  ...serverDefs,
  ...clientDefs,
  ...lifecycleDefs,
  ...unionDefs,
};

const SCHEMA_URI = {
  "draft-07": "http://json-schema.org/draft-07/schema#",
  "2020-12": "https://json-schema.org/draft/2020-12/schema",
} as const;

export function packDocumentId(version: McpVersion): string {
  return `https://patchbay.dev/schemas/mcp/${version}.json`;
}

export function definitionsContainer(version: McpVersion): "definitions" | "$defs" {
  return definitionContainer(draftFor(version));
}

/** The definition names a union (`anyOf` of refs, or a single ref) lists. */
export function unionMembers(schema: unknown): string[] {
  if (typeof schema !== "object" || schema === null) return [];
  const record = schema as { anyOf?: unknown; $ref?: unknown };
  const members = Array.isArray(record.anyOf) ? (record.anyOf as unknown[]) : [record];
  const names: string[] = [];
  for (const member of members) {
    const target = (member as { $ref?: unknown }).$ref;
    if (typeof target === "string") names.push(target.slice(target.lastIndexOf("/") + 1));
  }
  return names;
}

/**
 * Our composites: before 2025-11-25 a request or notification definition lacks the JSON-RPC
 * envelope, so `<Name>Message` joins the two; every result gets `<Result>Response`, the JSON-RPC
 * response carrying it (2026-07-28 upstream has these for its results, with the same members), and
 * from 2026-07-28 so does InputRequiredResult, for an input_required answer to a request not seen.
 */
function composites(version: McpVersion, defs: Record<string, unknown>): Record<string, SchemaNode> {
  const out: Record<string, SchemaNode> = {};
  if (!atLeast(version, ENVELOPED)) {
    for (const union of ["ClientRequest", "ServerRequest"]) {
      for (const name of unionMembers(defs[union])) out[messageDefinition(name)] = allOf(ref("JSONRPCRequest"), ref(name));
    }
    for (const union of ["ClientNotification", "ServerNotification"]) {
      for (const name of unionMembers(defs[union])) out[messageDefinition(name)] = allOf(ref("JSONRPCNotification"), ref(name));
    }
  }
  const requests = new Set([...unionMembers(defs.ClientRequest), ...unionMembers(defs.ServerRequest)]);
  for (const method of REQUEST_METHODS) {
    if (!requests.has(method.request)) continue;
    const answer = method.inputRequired && atLeast(version, STATELESS) ? anyOf(ref("InputRequiredResult"), ref(method.result)) : ref(method.result);
    out[responseDefinition(method.result)] = obj({ id: ref("RequestId"), jsonrpc: lit("2.0"), result: answer }, ["id", "jsonrpc", "result"]);
  }
  // An input_required answer whose request is not known is still held to InputRequiredResult.
  if (atLeast(version, STATELESS)) out[responseDefinition("InputRequiredResult")] = obj({ id: ref("RequestId"), jsonrpc: lit("2.0"), result: ref("InputRequiredResult") }, ["id", "jsonrpc", "result"]);
  return out;
}

/** The complete JSON Schema document of one MCP version, with a `$id` of our own. */
export function buildDocument(version: McpVersion): Record<string, unknown> {
  const container = definitionsContainer(version);
  const ctx: ResolveContext = { version, container };
  const defs: Record<string, unknown> = {};
  for (const [name, node] of Object.entries(DEFINITIONS)) {
    const schema = resolve(node, ctx);
    if (schema !== undefined) defs[name] = schema;
  }
  for (const [name, node] of Object.entries(composites(version, defs))) defs[name] = resolve(node, ctx);
  const sorted = Object.fromEntries(Object.keys(defs).sort().map((name) => [name, defs[name]]));
  return {
    $schema: SCHEMA_URI[draftFor(version)],
    $id: packDocumentId(version),
    $comment: `MCP ${version}, authored by Patchbay from the specification; see the pack's sources and notes.`,
    [container]: sorted,
  };
}
