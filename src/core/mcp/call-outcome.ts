import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { isJsonObject } from "../json/index.ts";
import { packFor } from "../packs/mcp/packs.ts";
import { checkStructuredContent, type ToolSchemas } from "../packs/mcp/tool-checks.ts";
import { atLeast, draftFor, nearestVersion } from "../packs/mcp/versions.ts";
import type { SchemaCompiler } from "../schema/compiler.ts";
import type { CallOutcome } from "./connection-types.ts";
import { relayFailureOf } from "./relay-error.ts";
import { isConnectionClosed, isLocalTimeout, serverMessage } from "./connect-failure.ts";

/** A tools/call that got no result: a JSON-RPC error from the server, or no answer at all. */
export function outcomeFromError(error: unknown, signal: AbortSignal | undefined): CallOutcome {
  if (signal?.aborted) return { kind: "cancelled", reason: String(signal.reason ?? "aborted") };
  if (isLocalTimeout(error)) return { kind: "timeout", timeoutMs: (error.data as { timeout: number }).timeout };
  if (isConnectionClosed(error)) return { kind: "connection-closed", message: "the connection closed before the tool answered" };
  const relayFailure = error instanceof McpError ? relayFailureOf(error.data) : undefined;
  if (relayFailure) {
    return {
      kind: "relay-failure",
      step: relayFailure.step,
      message: serverMessage(error as McpError),
      ...(relayFailure.status !== undefined ? { status: relayFailure.status } : {}),
      ...(relayFailure.body !== undefined ? { body: relayFailure.body } : {}),
    };
  }
  if (error instanceof McpError) return { kind: "json-rpc-error", code: error.code, message: serverMessage(error), data: error.data };
  throw error;
}

export interface ResultContext {
  readonly toolName: string;
  /** The tool's schemas from the latest listing, when it was listed. */
  readonly tool: ToolSchemas | undefined;
  readonly compiler: SchemaCompiler;
  readonly negotiatedVersion: string;
}

/**
 * A tools/call result: malformed (not a CallToolResult of the negotiated version), a tool error
 * (isError: true), or success with its structuredContent checked against the tool's outputSchema.
 */
export function outcomeFromResult(result: unknown, ctx: ResultContext): CallOutcome {
  const version = nearestVersion(ctx.negotiatedVersion);
  const issues = ctx.compiler.check(packFor(version), "CallToolResult", result).filter((i) => i.severity === "error");
  if (issues.length > 0 || !isJsonObject(result)) return { kind: "invalid-result", result, issues };
  if (result.isError === true) return { kind: "tool-error", result };
  const structuredContentIssues = ctx.tool
    ? checkStructuredContent(
        { result },
        ctx.toolName,
        ctx.tool,
        { validateWithSchema: (schema, value, pointer, draft) => ctx.compiler.checkDynamic(schema, value, pointer, draft) },
        draftFor(version),
        atLeast(version, "2025-06-18"),
      )
    : [];
  return { kind: "success", result, structuredContentIssues };
}
