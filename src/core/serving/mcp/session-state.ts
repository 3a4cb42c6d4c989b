import type { LoggingLevel } from "@modelcontextprotocol/sdk/types.js";

const SEVERITY: readonly LoggingLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

/** What one MCP session remembers: its log level, its subscriptions and the dynamic fixture tool. */
export class SessionState {
  /** Unset until the client calls logging/setLevel; until then every level is sent. */
  logLevel: LoggingLevel | undefined;
  readonly subscriptions = new Set<string>();
  /** Whether test_dynamic_tool has added its extra tool to this session's list. */
  dynamicToolShown = false;

  wantsLog(level: LoggingLevel): boolean {
    return this.logLevel === undefined || SEVERITY.indexOf(level) >= SEVERITY.indexOf(this.logLevel);
  }
}
