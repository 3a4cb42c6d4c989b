/**
 * What an MCP step came to: the outcome in the harness's words (from the console's own call and
 * request outcomes), the JSON-RPC response from the wire as the body, and the SSE events of the
 * answer when it came as a stream.
 */
import type { StepOutcome } from "../../src/core/harness/collection-types.ts";
import type { StepObservation } from "../../src/core/harness/run-types.ts";
import { isJsonObject } from "../../src/core/json/index.ts";
import type { CallOutcome } from "../../src/core/mcp/index.ts";
import { isResponse } from "../../src/core/mcp/frame-recorder.ts";
import { McpRequestError } from "../../src/core/mcp/request-failure.ts";
import type { WireEntry } from "../../src/core/wire/index.ts";
import { entryHeader, entryJson } from "./step-frames.ts";

type Why = "timeout" | "cancelled" | null;

const firstIssue = (issues: readonly { pointer: string; message: string }[]): string => {
  const issue = issues[0];
  return issue ? `: ${issue.pointer === "" ? issue.message : `${issue.pointer}: ${issue.message}`}` : "";
};

/** A tools/call outcome; `why` is the step's own stop, which the SDK reports as a cancel. */
export function callOutcome(outcome: CallOutcome, tool: string, version: string, why: Why, timeoutMs: number): StepOutcome {
  switch (outcome.kind) {
    case "success":
      return { kind: "result", message: `${tool} answered${outcome.structuredContentIssues.length > 0 ? `, but its structuredContent does not meet the tool's outputSchema${firstIssue(outcome.structuredContentIssues)}` : ""}` };
    case "tool-error":
      return { kind: "is-error", message: `${tool} reported an error (isError: true in its result)` };
    case "invalid-result":
      return { kind: "invalid-answer", message: `the answer is not a valid CallToolResult of MCP ${version}${firstIssue(outcome.issues)}${outcome.eraIssue ? ` (${outcome.eraIssue})` : ""}` };
    case "json-rpc-error":
      return { kind: "json-rpc-error", code: outcome.code, message: `the server refused tools/call with JSON-RPC error ${outcome.code}: ${outcome.message}` };
    case "timeout":
      return stopped("timeout", "tools/call", outcome.timeoutMs);
    case "cancelled":
      return stopped(why ?? "cancelled", "tools/call", timeoutMs);
    case "connection-closed":
      return { kind: "transport-error", message: outcome.message };
    case "relay-failure":
      return { kind: "transport-error", message: `${outcome.step}: ${outcome.message}` };
    case "input-required":
      return { kind: "invalid-answer", message: outcome.message };
    case "task":
      return { kind: "result", message: `${tool} runs as task ${outcome.task.taskId} (${outcome.task.status})` };
  }
}

export function stopped(why: "timeout" | "cancelled", method: string, timeoutMs: number): StepOutcome {
  return why === "timeout" ? { kind: "timeout", message: `no answer to ${method} within ${timeoutMs} ms` } : { kind: "cancelled", message: `cancelled before ${method} was answered` };
}

/** Any other request's result: a tools/call sent as given may still say isError. */
export function resultOutcome(method: string, result: Record<string, unknown>): StepOutcome {
  if (method === "tools/call" && result.isError === true) return { kind: "is-error", message: "the tool reported an error (isError: true in its result)" };
  return { kind: "result", message: `${method} answered` };
}

export function requestErrorOutcome(error: unknown, method: string, why: Why, timeoutMs: number): StepOutcome {
  if (!(error instanceof McpRequestError)) return { kind: "transport-error", message: `${method} failed: ${(error as Error).message}` };
  switch (error.kind) {
    case "json-rpc-error":
      return { kind: "json-rpc-error", code: error.code ?? 0, message: error.message };
    case "timeout":
      return stopped("timeout", method, timeoutMs);
    case "cancelled":
      return stopped(why ?? "cancelled", method, timeoutMs);
    case "connection-closed":
    case "relay-failure":
      return { kind: "transport-error", message: error.message };
  }
}

/** The response to the step's request in the step's frames, by the id its request went out with. */
export function responseEntry(entries: readonly WireEntry[], method: string): WireEntry | undefined {
  const request = entries.find((e) => {
    const json = e.direction === "out" ? entryJson(e) : undefined;
    return isJsonObject(json) && json.method === method && "id" in json;
  });
  if (!request?.correlationId) return undefined;
  return entries.find((e) => e.direction === "in" && e.correlationId === request.correlationId && isResponse(entryJson(e)));
}

const isSse = (entry: WireEntry): boolean => (entryHeader(entry, "content-type") ?? "").toLowerCase().includes("text/event-stream");

function kindOf(entry: WireEntry): string {
  const json = entryJson(entry);
  if (!isJsonObject(json)) return "unreadable";
  if (typeof json.method === "string") return json.method;
  return "error" in json ? "error" : "result";
}

/** The SSE events received in the step, when the answer itself came as one of them. */
export function sseStream(entries: readonly WireEntry[], response: WireEntry | undefined): StepObservation["stream"] {
  if (!response || !isSse(response)) return undefined;
  const events = entries.filter((e) => e.direction === "in" && isSse(e));
  return { kinds: events.map(kindOf), final: events[events.length - 1] === response };
}

const rpcId = (json: unknown): string | undefined => (isJsonObject(json) && (typeof json.id === "string" || typeof json.id === "number") ? JSON.stringify(json.id) : undefined);

/**
 * The step's own frames: a response to a request this step did not send (a late answer to the
 * step before, which gave up on it) belongs to that step, not this one, so it is left out.
 */
export function ownEntries(entries: readonly WireEntry[]): WireEntry[] {
  const sent = new Set(entries.filter((e) => e.direction === "out").flatMap((e) => {
    const json = entryJson(e);
    return Array.isArray(json) ? json.map(rpcId) : [rpcId(json)];
  }));
  return entries.filter((e) => {
    if (e.direction === "out") return true;
    const json = entryJson(e);
    return !isResponse(json) || sent.has(rpcId(json));
  });
}
