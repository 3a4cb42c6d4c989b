import type { LoggingLevel } from "@modelcontextprotocol/sdk/types.js";
import { atLeast, MCP_VERSIONS, type McpVersion, nearestVersion } from "../../packs/mcp/versions.ts";

const SEVERITY: readonly LoggingLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

/** What one MCP session remembers: its version, log level, subscriptions and the dynamic fixture tool. */
export class SessionState {
  /** The version initialize agreed; unknown (taken as the newest) until then. */
  protocolVersion: string | undefined;
  /** Unset until the client calls logging/setLevel; until then every level is sent. */
  logLevel: LoggingLevel | undefined;
  readonly subscriptions = new Set<string>();
  /** Whether test_dynamic_tool has added its extra tool to this session's list. */
  dynamicToolShown = false;

  /** True when the session's version has what `since` brought, so this session may send it. */
  speaks(since: McpVersion): boolean {
    const version = this.protocolVersion === undefined ? MCP_VERSIONS[MCP_VERSIONS.length - 1]! : nearestVersion(this.protocolVersion);
    return atLeast(version, since);
  }

  wantsLog(level: LoggingLevel): boolean {
    return this.logLevel === undefined || SEVERITY.indexOf(level) >= SEVERITY.indexOf(this.logLevel);
  }
}
