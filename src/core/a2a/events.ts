/**
 * What an agent's answer says, read from any dialect into one event model: a task, a direct
 * message, a status update or an artifact chunk, or an error. Responses and stream events are
 * read by the same functions; every reading keeps the raw object it came from.
 */
import { isJsonObject } from "../json/index.ts";
import type { Binding, Dialect } from "./dialect.ts";
import { nameJsonRpcError, type NamedError } from "./errors.ts";
import { partText } from "./message-parts.ts";
import { readState, type StateReading } from "./task-state.ts";

type Obj = Record<string, unknown>;

export interface ArtifactChunk {
  readonly artifactId: string;
  readonly name?: string;
  readonly parts: readonly unknown[];
  readonly append: boolean;
  readonly lastChunk: boolean;
}

export type A2aEvent =
  | { readonly kind: "task"; readonly taskId: string; readonly contextId?: string; readonly state?: StateReading; readonly statusText?: string; readonly artifacts: readonly ArtifactChunk[]; readonly raw: unknown; readonly notes: readonly string[] }
  | { readonly kind: "message"; readonly taskId?: string; readonly contextId?: string; readonly role?: string; readonly text: string; readonly raw: unknown; readonly notes: readonly string[] }
  | { readonly kind: "status"; readonly taskId?: string; readonly contextId?: string; readonly state?: StateReading; readonly statusText?: string; readonly final?: boolean; readonly raw: unknown; readonly notes: readonly string[] }
  | { readonly kind: "artifact"; readonly taskId?: string; readonly contextId?: string; readonly chunk: ArtifactChunk; readonly raw: unknown; readonly notes: readonly string[] }
  | { readonly kind: "tasks"; readonly tasks: readonly A2aEvent[]; readonly raw: unknown; readonly notes: readonly string[] }
  | { readonly kind: "other"; readonly raw: unknown; readonly notes: readonly string[] }
  | { readonly kind: "error"; readonly error: NamedError; readonly raw: unknown; readonly notes: readonly string[] };

const s = (o: Obj, k: string): string | undefined => (typeof o[k] === "string" ? (o[k] as string) : undefined);

/** The text of a message object's parts, joined. */
export function messageText(message: unknown): string {
  if (!isJsonObject(message)) return "";
  // v0.3's proto JSON (its REST binding) keeps the parts under `content`.
  const parts = Array.isArray(message.parts) ? message.parts : Array.isArray(message.content) ? message.content : [];
  return parts.flatMap((p) => {
    const text = partText(p);
    return text !== undefined ? [text] : [];
  }).join("");
}

function ids(o: Obj, idKey: string): { taskId?: string; contextId?: string } {
  const taskId = s(o, idKey);
  const contextId = s(o, "contextId") ?? s(o, "sessionId");
  return { ...(taskId !== undefined ? { taskId } : {}), ...(contextId !== undefined ? { contextId } : {}) };
}

/** A status member: `{state, message}`, or OpenFang's bare state string. */
function readStatus(status: unknown, notes: string[]): { state?: StateReading; statusText?: string } {
  const raw = isJsonObject(status) ? status.state : status;
  if (typeof status === "string") notes.push(`status is a bare string ("${status}"); the dialects send an object with a state`);
  const state = readState(raw);
  if (raw !== undefined && !state) notes.push(`unknown task state ${JSON.stringify(raw)}`);
  if (state?.nonStandard) notes.push(state.nonStandard);
  const text = isJsonObject(status) ? messageText(status.message ?? status.update) : "";
  return { ...(state ? { state } : {}), ...(text !== "" ? { statusText: text } : {}) };
}

function readArtifact(artifact: unknown, append: unknown, lastChunk: unknown): ArtifactChunk {
  const a = isJsonObject(artifact) ? artifact : {};
  const id = s(a, "artifactId") ?? (typeof a.index === "number" ? `#${a.index}` : s(a, "name") ?? "artifact");
  const name = s(a, "name");
  // v0.1 keeps append/lastChunk on the artifact; later dialects on the event.
  const app = append ?? a.append;
  const last = lastChunk ?? a.lastChunk;
  return { artifactId: id, ...(name !== undefined ? { name } : {}), parts: Array.isArray(a.parts) ? a.parts : [], append: app === true, lastChunk: last === true };
}

function readTask(o: Obj, notes: string[]): A2aEvent {
  const status = readStatus(o.status, notes);
  if (Array.isArray(o.messages) && !("history" in o)) notes.push("messages instead of history (not a member of any dialect's Task)");
  const artifacts = Array.isArray(o.artifacts) ? o.artifacts.map((a) => readArtifact(a, undefined, undefined)) : [];
  return { kind: "task", taskId: s(o, "id") ?? "", ...ids(o, "id"), ...status, artifacts, raw: o, notes };
}

function readMessage(o: Obj, notes: string[]): A2aEvent {
  const role = s(o, "role");
  return { kind: "message", ...ids(o, "taskId"), ...(role !== undefined ? { role } : {}), text: messageText(o), raw: o, notes };
}

/** A result object of any dialect: what it is, by `kind` (v0.2+), member name (v1.0) or shape (v0.1). */
export function readResult(result: unknown, dialect: Dialect | undefined): A2aEvent {
  const notes: string[] = [];
  if (!isJsonObject(result)) return { kind: "other", raw: result, notes: ["the result is not an object"] };
  switch (result.kind) {
    case "task":
      return readTask(result, notes);
    case "message":
      return readMessage(result, notes);
    case "status-update":
      return { kind: "status", ...ids(result, "taskId"), ...readStatus(result.status, notes), ...(typeof result.final === "boolean" ? { final: result.final } : {}), raw: result, notes };
    case "artifact-update":
      return { kind: "artifact", ...ids(result, "taskId"), chunk: readArtifact(result.artifact, result.append, result.lastChunk), raw: result, notes };
  }
  if (isJsonObject(result.task)) return readTask(result.task, notes);
  if (isJsonObject(result.message)) return readMessage(result.message, notes);
  if (isJsonObject(result.statusUpdate)) {
    const u = result.statusUpdate;
    // v0.3's proto JSON keeps `final` here; v1.0 has none.
    return { kind: "status", ...ids(u, "taskId"), ...readStatus(u.status, notes), ...(typeof u.final === "boolean" ? { final: u.final } : {}), raw: result, notes };
  }
  if (isJsonObject(result.artifactUpdate)) {
    const u = result.artifactUpdate;
    return { kind: "artifact", ...ids(u, "taskId"), chunk: readArtifact(u.artifact, u.append, u.lastChunk), raw: result, notes };
  }
  if (Array.isArray(result.tasks)) return { kind: "tasks", tasks: result.tasks.map((t) => (isJsonObject(t) ? readTask(t, []) : readResult(t, dialect))), raw: result, notes };
  // v0.1 stream events carry the task id as `id` with either a status or an artifact.
  if (dialect === "0.1" || !("kind" in result)) {
    if (isJsonObject(result.artifact) && typeof result.id === "string") return { kind: "artifact", ...ids(result, "id"), chunk: readArtifact(result.artifact, undefined, undefined), raw: result, notes };
    if ("status" in result && typeof result.id === "string") {
      if ("final" in result && !("artifacts" in result) && !("history" in result) && !("messages" in result)) {
        return { kind: "status", ...ids(result, "id"), ...readStatus(result.status, notes), ...(typeof result.final === "boolean" ? { final: result.final } : {}), raw: result, notes };
      }
      return readTask(result, notes);
    }
    if (Array.isArray(result.parts) && typeof result.role === "string") return readMessage(result, notes);
  }
  return { kind: "other", raw: result, notes: ["neither a task, a message, a status update nor an artifact update"] };
}

/** A JSON-RPC response or a REST body (or SSE data of either), read. */
export function readAnswer(value: unknown, dialect: Dialect | undefined, binding: Binding): A2aEvent {
  if (binding === "jsonrpc" && isJsonObject(value) && value.jsonrpc === "2.0") {
    if ("error" in value) return { kind: "error", error: nameJsonRpcError(value.error, dialect), raw: value, notes: [] };
    if ("result" in value) return readResult(value.result, dialect);
    return { kind: "other", raw: value, notes: ["a JSON-RPC response with neither result nor error"] };
  }
  const read = readResult(value, dialect);
  if (binding === "jsonrpc") return { ...read, notes: ["not a JSON-RPC response: the agent answered a bare object", ...read.notes] };
  return read;
}
