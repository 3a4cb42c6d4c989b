import { isJsonObject } from "../../../core/json/index.ts";
import type { CallOutcome } from "../../../core/mcp/index.ts";

/** One content item of a tool result, ready to render by its type. */
export type ContentPart =
  | { readonly kind: "text"; readonly label: string; readonly text: string }
  | { readonly kind: "image"; readonly label: string; readonly src: string }
  | { readonly kind: "audio"; readonly label: string; readonly src: string }
  | { readonly kind: "json"; readonly label: string; readonly text: string };

export interface OutcomeSummary {
  /** The outcome's name, as the user reads it. */
  readonly title: string;
  readonly detail: string;
  readonly tone: "good" | "bad" | "warn";
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function pretty(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? String(value);
}

/** A data URL for media the server sent, or undefined when the type or data could smuggle something else. */
export function mediaUrl(kind: "image" | "audio", mimeType: unknown, data: unknown): string | undefined {
  if (typeof mimeType !== "string" || typeof data !== "string") return undefined;
  if (!new RegExp(`^${kind}/[\\w.+-]+$`).test(mimeType) || !BASE64.test(data)) return undefined;
  return `data:${mimeType};base64,${data}`;
}

function partOf(item: unknown, index: number): ContentPart {
  const n = `#${index + 1}`;
  if (!isJsonObject(item)) return { kind: "json", label: `${n} (not an object)`, text: pretty(item) };
  switch (item.type) {
    case "text":
      if (typeof item.text === "string") return { kind: "text", label: `${n} text`, text: item.text };
      break;
    case "image":
    case "audio": {
      const src = mediaUrl(item.type, item.mimeType, item.data);
      if (src) return { kind: item.type, label: `${n} ${item.type} (${String(item.mimeType)})`, src };
      break;
    }
    case "resource_link":
      return { kind: "text", label: `${n} resource link`, text: [item.uri, item.name, item.mimeType, item.description].filter((v) => typeof v === "string").join("\n") };
    case "resource": {
      const r = isJsonObject(item.resource) ? item.resource : {};
      const body = typeof r.text === "string" ? r.text : typeof r.blob === "string" ? `(binary, ${r.blob.length} base64 characters)` : "(no text)";
      return { kind: "text", label: `${n} embedded resource ${typeof r.uri === "string" ? r.uri : ""}`.trimEnd(), text: body };
    }
  }
  return { kind: "json", label: `${n} ${typeof item.type === "string" ? item.type : "content"}`, text: pretty(item) };
}

/** The result's content items, then its structuredContent, each rendered by type. */
export function contentParts(result: unknown): ContentPart[] {
  if (!isJsonObject(result)) return [];
  const content = Array.isArray(result.content) ? result.content : [];
  const parts = content.map(partOf);
  if (result.structuredContent !== undefined) parts.push({ kind: "json", label: "structuredContent", text: pretty(result.structuredContent) });
  return parts;
}

/** Names the outcome precisely: the server refused the request, or the tool ran and failed, or it succeeded. */
export function summarize(outcome: CallOutcome): OutcomeSummary {
  switch (outcome.kind) {
    case "json-rpc-error":
      return { title: "JSON-RPC error", detail: `The server refused the request (code ${outcome.code}): ${outcome.message}`, tone: "bad" };
    case "tool-error":
      return { title: "Tool error (isError: true)", detail: "The tool ran and reported failure.", tone: "bad" };
    case "success":
      return {
        title: "Success",
        detail: outcome.structuredContentIssues.length > 0 ? `structuredContent has ${outcome.structuredContentIssues.length} issue(s) against the outputSchema.` : "The tool ran and succeeded.",
        tone: outcome.structuredContentIssues.length > 0 ? "warn" : "good",
      };
    case "invalid-result":
      return { title: "Invalid result", detail: outcome.eraIssue ?? `The answer is not a CallToolResult of the negotiated version (${outcome.issues.length} issue(s)).`, tone: "bad" };
    case "timeout":
      return { title: "Timed out", detail: `No answer within ${outcome.timeoutMs} ms.`, tone: "warn" };
    case "cancelled":
      return { title: "Cancelled", detail: outcome.reason, tone: "warn" };
    case "connection-closed":
      return { title: "Connection closed", detail: outcome.message, tone: "bad" };
    case "relay-failure":
      return { title: `Not delivered (${outcome.step} step)`, detail: `The request never got an answer from the server: ${outcome.message}`, tone: "bad" };
    case "input-required":
      return { title: "Input still required", detail: outcome.message, tone: "warn" };
    case "task":
      return { title: `Running as task ${outcome.task.taskId}`, detail: `Status ${outcome.task.status}${outcome.task.statusMessage ? `: ${outcome.task.statusMessage}` : ""}. Its result comes through the task.`, tone: "good" };
  }
}

/** The raw JSON shown beside the rendered result. */
export function rawOf(outcome: CallOutcome): string {
  switch (outcome.kind) {
    case "json-rpc-error":
      return pretty({ code: outcome.code, message: outcome.message, ...(outcome.data !== undefined ? { data: outcome.data } : {}) });
    case "tool-error":
    case "success":
    case "invalid-result":
    case "input-required":
    case "task":
      return pretty(outcome.result);
    default:
      return pretty(outcome);
  }
}

export type Annotation = "readOnlyHint" | "destructiveHint" | "idempotentHint" | "openWorldHint";
const ANNOTATIONS: readonly Annotation[] = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"];
const BADGE: Readonly<Record<Annotation, string>> = { readOnlyHint: "read-only", destructiveHint: "destructive", idempotentHint: "idempotent", openWorldHint: "open world" };

/** The annotation hints a tool declares true, as badge words. */
export function annotationBadges(tool: Record<string, unknown>): { readonly hint: Annotation; readonly word: string }[] {
  const a = isJsonObject(tool.annotations) ? tool.annotations : {};
  return ANNOTATIONS.filter((hint) => a[hint] === true).map((hint) => ({ hint, word: BADGE[hint] }));
}
