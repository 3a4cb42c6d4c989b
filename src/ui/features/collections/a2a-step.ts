/**
 * The A2A compose panel's request as a collection step: the agent by its card URL (with the
 * interface's dialect and binding), a text message for send and stream, the task for the
 * operations that name one. Credentials become secret references, as for MCP.
 */
import type { Binding, Dialect, Operation } from "../../../core/a2a/index.ts";
import type { A2aAction, TargetSpec } from "../../../core/harness/index.ts";
import type { A2aState } from "../a2a/a2a-state.svelte.ts";
import type { PartRow } from "../a2a/parts-draft.ts";
import { requestHeaders } from "../a2a/request-headers.ts";
import { headersWithSecrets, type SavedRequestResult } from "./step-drafts.ts";

export interface A2aComposeInput {
  /** The URL the card was found at; undefined when no card was fetched. */
  readonly cardUrl: string | undefined;
  readonly agentName: string;
  /** The interface chosen, or why there is none. */
  readonly target: { readonly dialect: Dialect; readonly binding: Binding } | string;
  readonly operation: Operation;
  readonly parts: readonly PartRow[];
  readonly taskId: string;
  readonly contextId: string;
  /** The form's headers and credentials, or why they are not usable. */
  readonly headers: Readonly<Record<string, string>> | string;
  readonly raw: boolean;
}

const NAMES_TASK: ReadonlySet<Operation> = new Set(["get", "cancel", "subscribe"]);

export function a2aStepRequest(input: A2aComposeInput): SavedRequestResult {
  if (input.raw) return { ok: false, error: "a raw request is not saved as a step: use the template" };
  if (input.cardUrl === undefined) return { ok: false, error: "fetch the agent's card first: a step names its agent by the card" };
  if (typeof input.target === "string") return { ok: false, error: input.target };
  if (typeof input.headers === "string") return { ok: false, error: input.headers };
  const taskId = input.taskId.trim();
  const contextId = input.contextId.trim();
  const ids = { ...(taskId !== "" ? { taskId } : {}), ...(contextId !== "" ? { contextId } : {}) };
  let action: A2aAction;
  if (input.operation === "send" || input.operation === "stream") {
    const [part, ...more] = input.parts;
    if (part?.kind !== "text" || more.length > 0) return { ok: false, error: "only a message of one text part is saved as a step; edit other messages in the collection's JSON" };
    action = { protocol: "a2a", operation: input.operation, text: part.text, ...ids };
  } else if (NAMES_TASK.has(input.operation)) {
    if (taskId === "") return { ok: false, error: `give the task id: ${input.operation} names a task` };
    action = { protocol: "a2a", operation: input.operation, ...ids };
  } else {
    return { ok: false, error: `the ${input.operation} operation is not saved as a step from here` };
  }
  const { headers, secrets } = headersWithSecrets(input.headers, input.agentName);
  const target: TargetSpec = { protocol: "a2a", card: input.cardUrl, dialect: input.target.dialect, binding: input.target.binding, ...(Object.keys(headers).length > 0 ? { headers } : {}) };
  const notes = Object.keys(secrets).length > 0 ? [`credentials are saved as secrets: ${Object.keys(secrets).join(", ")}`] : [];
  return { ok: true, request: { draft: { name: input.operation, target, targetHint: input.agentName, action }, secrets, notes } };
}

/** What the A2A workbench holds now, as a step. */
export function a2aComposeRequest(a2a: A2aState): SavedRequestResult {
  const { card, compose } = a2a;
  const h = requestHeaders(card.headerRows, { bearer: card.bearer, apiKeyName: card.apiKeyName, apiKeyValue: card.apiKeyValue });
  const name = card.found?.card.name;
  return a2aStepRequest({
    cardUrl: card.found?.url,
    agentName: typeof name === "string" && name.trim() !== "" ? name : "agent",
    target: compose.target,
    operation: compose.op,
    parts: compose.parts,
    taskId: compose.taskId,
    contextId: compose.contextId,
    headers: h.ok ? h.headers : h.error,
    raw: compose.mode === "raw",
  });
}
