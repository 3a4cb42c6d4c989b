import { isJsonObject } from "../json/index.ts";
import { packFor } from "../packs/mcp/packs.ts";
import { checkStructuredContent, type ToolSchemas } from "../packs/mcp/tool-checks.ts";
import { atLeast, draftFor, nearestVersion } from "../packs/mcp/versions.ts";
import type { SchemaCompiler } from "../schema/compiler.ts";
import type { CallOutcome } from "./connection-types.ts";
import { RelayError } from "./relay-error.ts";
import { McpRequestError } from "./request-failure.ts";

/** A tools/call that got no result: a JSON-RPC error from the server, or no answer at all. */
export function outcomeFromError(error: unknown): CallOutcome {
  if (error instanceof RelayError) {
    return {
      kind: "relay-failure",
      step: error.step,
      message: error.message,
      ...(error.status !== undefined ? { status: error.status } : {}),
      ...(error.body !== undefined ? { body: error.body } : {}),
    };
  }
  if (!(error instanceof McpRequestError)) throw error;
  switch (error.kind) {
    case "cancelled":
      return { kind: "cancelled", reason: error.detail.reason ?? "aborted" };
    case "timeout":
      return { kind: "timeout", timeoutMs: error.detail.timeoutMs ?? 0 };
    case "connection-closed":
      return { kind: "connection-closed", message: "the connection closed before the tool answered" };
    case "relay-failure": {
      const relay = error.detail.relayFailure;
      return {
        kind: "relay-failure",
        step: relay?.step ?? "send",
        message: error.detail.relayMessage ?? error.message,
        ...(relay?.status !== undefined ? { status: relay.status } : {}),
        ...(relay?.body !== undefined ? { body: relay.body } : {}),
      };
    }
    case "json-rpc-error":
      return { kind: "json-rpc-error", code: error.error?.code ?? NaN, message: error.error?.message ?? error.message, data: error.error?.data };
  }
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
