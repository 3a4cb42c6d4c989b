/**
 * A message as a user drafts it (text, files, data), written in a dialect's wire shape:
 * v0.1 tags parts with `type`, v0.2/v0.3 with `kind`, v1.0 by member name (`text`, `raw`, `url`,
 * `data`) with ProtoJSON role names. v0.3's HTTP+JSON binding is its proto's JSON: parts under
 * `content`, files as `fileWithBytes`/`fileWithUri`, data wrapped in `data.data`.
 */
import type { Binding, Dialect } from "./dialect.ts";

export type PartDraft =
  | { readonly kind: "text"; readonly text: string }
  /** `bytes` is base64; a file has bytes or a URI. */
  | { readonly kind: "file"; readonly name?: string; readonly mediaType?: string; readonly bytes?: string; readonly uri?: string }
  | { readonly kind: "data"; readonly data: unknown };

export interface MessageDraft {
  readonly parts: readonly PartDraft[];
  readonly messageId: string;
  /** Continues this task (v0.2+: a server id; v0.1 uses the request's task id instead). */
  readonly taskId?: string;
  readonly contextId?: string;
  readonly metadata?: Record<string, unknown>;
}

function partV01(part: PartDraft): Record<string, unknown> {
  if (part.kind === "text") return { type: "text", text: part.text };
  if (part.kind === "data") return { type: "data", data: part.data };
  return { type: "file", file: fileBody(part, "mimeType") };
}

function partV0x(part: PartDraft): Record<string, unknown> {
  if (part.kind === "text") return { kind: "text", text: part.text };
  if (part.kind === "data") return { kind: "data", data: part.data };
  return { kind: "file", file: fileBody(part, "mimeType") };
}

function partV1(part: PartDraft): Record<string, unknown> {
  if (part.kind === "text") return { text: part.text };
  if (part.kind === "data") return { data: part.data };
  const out: Record<string, unknown> = part.bytes !== undefined ? { raw: part.bytes } : { url: part.uri ?? "" };
  if (part.name !== undefined) out.filename = part.name;
  if (part.mediaType !== undefined) out.mediaType = part.mediaType;
  return out;
}

function fileBody(part: Extract<PartDraft, { kind: "file" }>, typeKey: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (part.name !== undefined) out.name = part.name;
  if (part.mediaType !== undefined) out[typeKey] = part.mediaType;
  if (part.bytes !== undefined) out.bytes = part.bytes;
  else if (part.uri !== undefined) out.uri = part.uri;
  return out;
}

function partV03Proto(part: PartDraft): Record<string, unknown> {
  if (part.kind === "text") return { text: part.text };
  if (part.kind === "data") return { data: { data: part.data } };
  const file: Record<string, unknown> = part.bytes !== undefined ? { fileWithBytes: part.bytes } : { fileWithUri: part.uri ?? "" };
  if (part.mediaType !== undefined) file.mimeType = part.mediaType;
  return { file };
}

/** The message object of a send request in `dialect` over `binding`. */
export function wireMessage(dialect: Dialect, draft: MessageDraft, binding: Binding = "jsonrpc"): Record<string, unknown> {
  const meta = draft.metadata ? { metadata: draft.metadata } : {};
  if (dialect === "0.3" && binding === "rest") {
    const ids = { ...(draft.taskId ? { taskId: draft.taskId } : {}), ...(draft.contextId ? { contextId: draft.contextId } : {}) };
    return { messageId: draft.messageId, role: "ROLE_USER", content: draft.parts.map(partV03Proto), ...ids, ...meta };
  }
  if (dialect === "0.1") return { role: "user", parts: draft.parts.map(partV01), ...meta };
  const ids = { ...(draft.taskId ? { taskId: draft.taskId } : {}), ...(draft.contextId ? { contextId: draft.contextId } : {}) };
  if (dialect === "1.0") return { messageId: draft.messageId, role: "ROLE_USER", parts: draft.parts.map(partV1), ...ids, ...meta };
  return { kind: "message", messageId: draft.messageId, role: "user", parts: draft.parts.map(partV0x), ...ids, ...meta };
}

/** The text of a wire part of any dialect, or undefined for a part that is not text. */
export function partText(part: unknown): string | undefined {
  if (typeof part !== "object" || part === null) return undefined;
  const p = part as Record<string, unknown>;
  if (typeof p.text === "string" && (p.kind === undefined || p.kind === "text") && (p.type === undefined || p.type === "text")) return p.text;
  return undefined;
}

/** Parts as one line of text for a terminal: text parts as they are, any other part as its JSON, so nothing is hidden. */
export function partsText(parts: readonly unknown[]): string {
  return parts.map((p) => partText(p) ?? JSON.stringify(p)).join("");
}
