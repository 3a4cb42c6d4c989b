import type { MessageKind, MessageRole } from "../../validation/types.ts";

/** One JSON-RPC method of an A2A version and the definitions of its request and success response. */
export interface MethodSpec {
  readonly method: string;
  /** Definition of the request envelope. */
  readonly request: string;
  /** Definition of the success response envelope; null for streaming methods, answered by stream events. */
  readonly result: string | null;
  readonly streaming: boolean;
}

export const requestKindId = (method: string): string => `${method}:request`;
export const resultKindId = (method: string): string => `${method}:result`;

/** Kind ids shared by every A2A pack, so recognition can name a kind without knowing the version. */
export const KIND = {
  error: "error",
  card: "card",
  /** v0.2.0–v0.2.4 cards, which have no protocolVersion. */
  cardBefore025: "card:0.2.0-0.2.4",
  streamEvent: "stream:event",
  streamStatus: "stream:status-update",
  streamArtifact: "stream:artifact-update",
  task: "payload:Task",
  message: "payload:Message",
  statusEvent: "payload:TaskStatusUpdateEvent",
  artifactEvent: "payload:TaskArtifactUpdateEvent",
  streamResponse: "payload:StreamResponse",
} as const;

/** The request and result kinds of every method. */
export function methodKinds(methods: readonly MethodSpec[]): MessageKind[] {
  const kinds: MessageKind[] = [];
  for (const m of methods) {
    kinds.push({ id: requestKindId(m.method), label: `${m.method} request`, definition: m.request, role: "request", direction: "client-to-server" });
  }
  for (const m of methods) {
    if (m.result === null) continue;
    kinds.push({ id: resultKindId(m.method), label: `${m.method} response`, definition: m.result, role: "result", direction: "server-to-client" });
  }
  return kinds;
}

/** A kind that is not a method's request or result: events, errors, cards, payloads. */
export function kind(id: string, label: string, definition: string, role: MessageRole): MessageKind {
  const direction = role === "payload" ? "either" : "server-to-client";
  return { id, label, definition, role, direction };
}

/** Upstream's references, by tag and commit, so every pack can cite them the same way. */
export const A2A_REPO = "https://github.com/a2aproject/A2A";

export function specSource(tag: string, commit: string, path: string, title: string): { title: string; url: string; revision: string } {
  return { title, url: `${A2A_REPO}/blob/${tag}/${path}`, revision: `${tag} (${commit})` };
}
