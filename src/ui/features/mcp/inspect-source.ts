import type { ConnectResult, McpConnection } from "../../../core/mcp/index.ts";
import { McpRequestError } from "../../../core/mcp/request-failure.ts";

/** What the inspect panels read from the workbench: the open connection and what initialize said. */
export interface InspectSource {
  /** The open connection; undefined while none is open. */
  readonly connection: () => McpConnection | undefined;
  readonly info: () => ConnectResult | null | undefined;
  /** The request time limit the user chose; the connection's default when absent. */
  readonly timeoutMs?: () => number | undefined;
}

/** A failed request as shown: a plain sentence, and the server's error as JSON when it sent one. */
export interface RequestFailureView {
  readonly message: string;
  readonly raw: string | undefined;
}

export function failureView(error: unknown): RequestFailureView {
  if (error instanceof McpRequestError && error.error) return { message: error.message, raw: prettyJson(error.error) };
  return { message: error instanceof Error ? error.message : String(error), raw: undefined };
}

/** Pretty JSON for the raw view; never throws. */
export function prettyJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The values of a completion/complete result, or none when it is malformed. */
export function completionValues(result: unknown): string[] {
  const completion = (result as { completion?: { values?: unknown } } | null)?.completion;
  const values = completion?.values;
  return Array.isArray(values) ? values.filter((v): v is string => typeof v === "string").slice(0, 100) : [];
}
