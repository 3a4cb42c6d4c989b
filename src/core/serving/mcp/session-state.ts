import { atLeast, MCP_VERSIONS, type McpVersion, nearestVersion } from "../../packs/mcp/versions.ts";

/**
 * The two ways MCP is spoken: `legacy` (2024-11-05 … 2025-11-25, an initialize handshake and a
 * session) and `modern` (2026-07-28: stateless, every request carries its own `_meta` envelope).
 */
export type McpEra = "legacy" | "modern";

/** The revision the modern era speaks. */
export const MODERN_VERSION: McpVersion = "2026-07-28";

/**
 * What one MCP server instance remembers: its era, the version it agreed, subscriptions and the
 * dynamic fixture tool. A legacy instance lives as long as its session; a modern one serves one
 * request (HTTP) or one connection (stdio), so it keeps nothing between requests.
 */
export class SessionState {
  readonly era: McpEra;
  /** Whose tasks this instance sees: its session on the legacy era, every caller alike on the modern one. */
  readonly owner: string;
  readonly subscriptions = new Set<string>();
  /** Whether test_dynamic_tool has added its extra tool to this session's list. */
  dynamicToolShown = false;
  readonly #version: () => string | undefined;

  /** `version` reads the version the SDK agreed (unknown, taken as the newest of the era, until then). */
  constructor(era: McpEra, version: () => string | undefined, owner: string) {
    this.era = era;
    this.#version = version;
    this.owner = owner;
  }

  get protocolVersion(): string | undefined {
    return this.#version();
  }

  /** True when the session's version has what `since` brought, so this session may send it. */
  speaks(since: McpVersion): boolean {
    const agreed = this.#version();
    const newest = this.era === "modern" ? MODERN_VERSION : MCP_VERSIONS[MCP_VERSIONS.length - 2]!;
    return atLeast(agreed === undefined ? newest : nearestVersion(agreed), since);
  }
}
