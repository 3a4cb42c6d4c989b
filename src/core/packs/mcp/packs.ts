import type { PackSource, SchemaPack } from "../../validation/types.ts";
import { buildDocument, definitionsContainer } from "./document.ts";
import { ENVELOPED, STATELESS } from "./defs-shapes.ts";
import { kindsFor } from "./kinds.ts";
import { MCP_VERSIONS, atLeast, draftFor, type McpVersion, specUrl } from "./versions.ts";

/** The upstream schema file each pack's facts were checked against, at the commit that last touched it. */
const SCHEMA_COMMITS: Readonly<Record<McpVersion, string>> = {
  "2024-11-05": "dfc88487d491ae1f3e21963b55f56be073cc1859",
  "2025-03-26": "ef5ebfaaac37d6086f522aeed29015dda0403359",
  "2025-06-18": "2ebb8060268e177b22598b403d6ba6764bb899ac",
  "2025-11-25": "c4c367f9f58296a7053f5c78a52fd02bfbb56a49",
  "2026-07-28": "271ecc9accafdd9b83a3c869fa67c22953b2af80",
};

function sources(version: McpVersion): PackSource[] {
  const commit = SCHEMA_COMMITS[version];
  return [
    { title: `Model Context Protocol specification, version ${version}`, url: specUrl(version) },
    {
      title: `modelcontextprotocol/modelcontextprotocol schema/${version}/schema.json (facts only; no text copied)`,
      url: `https://github.com/modelcontextprotocol/modelcontextprotocol/blob/${commit}/schema/${version}/schema.json`,
      revision: commit,
    },
  ];
}

function notes(version: McpVersion): string[] {
  const list = [
    "ErrorResponse is ours: any JSON-RPC error response. Unlike upstream it accepts \"id\": null, which JSON-RPC 2.0 requires when the request's id could not be read (parse error, invalid request).",
    "<Result>Response definitions are ours: the JSON-RPC response whose result is that definition (2026-07-28 upstream defines the same for its results).",
    "Formats (uri, uri-template, byte) are kept as annotations and not asserted, as in upstream's own use of the schema.",
  ];
  if (!atLeast(version, ENVELOPED)) {
    list.push(
      "<Name>Message definitions are ours: the JSON-RPC envelope (JSONRPCRequest or JSONRPCNotification) joined with upstream's request or notification definition, which before 2025-11-25 lacks jsonrpc and id.",
    );
  }
  if (version === ENVELOPED) list.push("CreateTaskResultResponse is ours: the JSON-RPC response to a task-augmented request.");
  if (atLeast(version, "2025-06-18")) {
    list.push(
      "ElicitResult content accepts any number. Upstream's generated schema allows only integer answers; the TypeScript it is generated from types them as number, and a NumberSchema field may ask for type \"number\", whose answer may be a decimal.",
    );
  }
  if (atLeast(version, STATELESS)) {
    list.push(
      "InputRequiredResult requires resultType \"input_required\", the meaning the specification's ResultType gives it. Upstream allows any string there, so every result with a resultType (a malformed CallToolResult, say) would pass as an InputRequiredResult; upstream's own read-resource-result-response example, which lacks ttlMs and cacheScope, passes only that way.",
      "JSONValue accepts every JSON value. Upstream's generated schema allows only string, integer and boolean leaves; the TypeScript it is generated from (and JSON itself) allows any number and null.",
    );
  }
  return list;
}

function buildPack(version: McpVersion, index: number): SchemaPack {
  const document = buildDocument(version);
  const defs = document[definitionsContainer(version)] as Record<string, unknown>;
  return {
    id: `mcp/${version}`,
    family: "mcp",
    version,
    label: `MCP ${version}`,
    order: index + 1,
    draft: draftFor(version),
    assertFormats: false,
    document,
    sources: sources(version),
    notes: notes(version),
    kinds: kindsFor(version, defs),
  };
}

/** One pack per MCP version, oldest first. */
export const MCP_PACKS: readonly SchemaPack[] = MCP_VERSIONS.map(buildPack);

export function packFor(version: McpVersion): SchemaPack {
  const pack = MCP_PACKS[MCP_VERSIONS.indexOf(version)];
  if (!pack) throw new Error(`no MCP pack for ${version}`);
  return pack;
}
