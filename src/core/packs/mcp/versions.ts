import type { SchemaDraft } from "../../validation/types.ts";

/** The MCP protocol versions this project has packs for, oldest first. */
export const MCP_VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"] as const;

export type McpVersion = (typeof MCP_VERSIONS)[number];

/** Protocol versions are ISO dates, so string order is release order. */
export function atLeast(version: McpVersion, since: McpVersion): boolean {
  return version >= since;
}

export function isMcpVersion(value: unknown): value is McpVersion {
  return typeof value === "string" && (MCP_VERSIONS as readonly string[]).includes(value);
}

/**
 * The pack to use for a version string seen on the wire: an exact match, else the newest known
 * version released before it (a peer speaking an unlisted date follows the rules then in force),
 * else the oldest pack.
 */
export function nearestVersion(value: string): McpVersion {
  let best: McpVersion = MCP_VERSIONS[0];
  for (const version of MCP_VERSIONS) if (version <= value) best = version;
  return best;
}

/** The upstream schemas moved from draft-07 to 2020-12 with 2025-11-25. */
export function draftFor(version: McpVersion): SchemaDraft {
  return atLeast(version, "2025-11-25") ? "2020-12" : "draft-07";
}

export function specUrl(version: McpVersion): string {
  return `https://modelcontextprotocol.io/specification/${version}`;
}
