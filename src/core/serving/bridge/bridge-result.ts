import type { ToolOutcome } from "../../fisk/client/tool-outcome.ts";
import type { McpToolResult } from "../mcp-result.ts";

/** Where the bridge says which fisk-ai outcome a result came from, for clients and tests that want the kind. */
export const BRIDGE_META_KEY = "dev.patchbay/bridge";

export interface BridgedCall {
  /** The tool's name on the peer (the wire name, not the MCP one). */
  readonly remoteName: string;
  /** The agent identity called. */
  readonly host: string;
}

const ms = (n: number): string => (n >= 1000 ? `${(n / 1000).toFixed(n % 1000 === 0 ? 0 : 1)} s` : `${Math.round(n)} ms`);

/** Why a call did not come back with a reply, in words; null for the outcomes that carry a reply. */
function failureText(outcome: ToolOutcome, call: BridgedCall): string | null {
  switch (outcome.kind) {
    case "refused":
      return `"choria.fisk-ai.tool.${call.host}" refused the request: ${outcome.code}: ${outcome.description}`;
    case "no-such-agent":
      return outcome.via
        ? `the agent is unavailable: nothing answers (its PING went unanswered while the call waited)`
        : `the agent is unavailable: nothing answers on choria.fisk-ai.tool.${call.host} (no responders)`;
    case "idle-timeout":
      return `the agent is unavailable: the peer sent nothing for ${ms(outcome.idleMs)}`;
    case "instance-gone":
      return `the instance ${outcome.instance} that accepted the call stopped answering its PING: it died or stopped mid-call`;
    case "disconnected":
      return `the NATS connection dropped while the call was in flight${outcome.server ? ` (server ${outcome.server})` : ""}; it was not sent again`;
    case "protocol-error":
      return `protocol error: ${outcome.message}`;
    case "cancelled":
      return "the call was cancelled before the agent answered";
    case "send-failed":
      return `not sent: ${outcome.message}`;
    default:
      return null;
  }
}

const result = (text: string, isError: boolean, outcome: ToolOutcome, call: BridgedCall): McpToolResult => ({
  content: [{ type: "text", text }],
  isError,
  _meta: { [BRIDGE_META_KEY]: { outcome: outcome.kind, agent: call.host, tool: call.remoteName } },
});

/**
 * A fisk-ai tool call's outcome as an MCP tool result, the way fisk-ai maps a remote tool's reply
 * and serves its own tools over MCP: a command that ran is a success carrying its exit code (non-zero
 * included) as `{"command","exit_code","output","truncated"?}`; an in-process tool's output passes
 * verbatim; `is_error` (a capacity refusal and an unknown tool among them) is an error result with
 * the peer's text; anything that kept the reply from arriving is an error result
 * `calling tool "<remote>" on agent "<host>": <why>`. Never a JSON-RPC error, so a model sees it.
 */
export function bridgeResult(outcome: ToolOutcome, call: BridgedCall): McpToolResult {
  switch (outcome.kind) {
    case "ran": {
      const body = {
        ...(outcome.command !== undefined ? { command: outcome.command } : {}),
        exit_code: outcome.exitCode,
        output: outcome.output,
        ...(outcome.truncated ? { truncated: true } : {}),
      };
      return result(JSON.stringify(body), false, outcome, call);
    }
    case "output":
      return result(outcome.output, false, outcome, call);
    case "harness-failure":
      return result(outcome.output || `the tool failed on agent "${call.host}" without saying why`, true, outcome, call);
    case "capacity":
      return result(outcome.reason || `tool "${call.remoteName}" on agent "${call.host}" did not run: the agent is at its maximum of concurrent tool calls`, true, outcome, call);
    case "not-available":
      return result(outcome.reason, true, outcome, call);
    default: {
      const why = failureText(outcome, call) ?? `unexpected outcome ${(outcome as { kind: string }).kind}`;
      return result(`calling tool ${JSON.stringify(call.remoteName)} on agent ${JSON.stringify(call.host)}: ${why}`, true, outcome, call);
    }
  }
}
