import type { Verdict } from "../../validation/types.ts";
import { encodeFiskMessage, FISK_PROTOCOLS, toolRequest, toolSubject, type JsonObject } from "../codec/index.ts";
import { freshInbox, idleBound, outgoingProblem, stampContext, textOf, type FiskClientDeps } from "./deps.ts";
import { livenessFor, type LivenessOption } from "./liveness.ts";
import { DEFAULT_IDLE_MS, readReplySet, type ReplySetEntry, type ReplySetResult } from "./reply-set.ts";
import { toolOutcome, type ToolOutcome } from "./tool-outcome.ts";

export interface CallOptions {
  /** Longest wait between messages; default 120 s, raised to 30 s unless `allowShortIdle`. */
  idleMs?: number;
  /** For tests: let `idleMs` go under the 30 s floor. */
  allowShortIdle?: boolean;
  signal?: AbortSignal;
  onEntry?: (e: ReplySetEntry) => void;
  /** Write the request exactly as fisk-ai's Go code would. */
  go?: boolean;
  /** Only for a peer known to be Gen 2: a strict Gen 1 peer refuses it with a 400. */
  traceparent?: string;
  /** Ask the agent's micro PING when the set stays silent (default on); `false` only waits. */
  liveness?: LivenessOption;
}

export interface ToolCallResult {
  readonly subject: string;
  /** The request tag. */
  readonly request: string;
  /** Exactly what was sent. */
  readonly requestText: string;
  readonly set: ReplySetResult;
  readonly outcome: ToolOutcome;
  /** With a validator: the verdict of each entry of the set, same index; undefined for an empty body. */
  readonly verdicts?: readonly (Verdict | undefined)[];
}

const TERMINALS: ReadonlySet<string> = new Set([FISK_PROTOCOLS.toolReply]);
const notSent = (message: string): ReplySetResult => ({ entries: [], end: { kind: "send-failed", message }, gaps: 0, elapsedMs: 0 });

/** An empty object, like null, leaves `input` off: fisk-ai's client drops both. */
function inputOf(input: Record<string, unknown> | null): JsonObject | null {
  return input === null || Object.keys(input).length === 0 ? null : (input as JsonObject);
}

/**
 * `tool.request` to `choria.fisk-ai.tool.<identity>`, then the reply set read from a fresh inbox.
 * Works against Gen 1 peers (one reply) and Gen 2 peers (ack, keepalives, final reply) alike.
 */
export async function callTool(
  deps: FiskClientDeps,
  identity: string,
  tool: string,
  input: Record<string, unknown> | null,
  opts: CallOptions = {},
): Promise<ToolCallResult> {
  let subject = "";
  let request = "";
  let requestText = "";
  try {
    subject = toolSubject(identity);
    const message = toolRequest(tool, inputOf(input), stampContext(deps, identity, opts.traceparent));
    request = message.request;
    requestText = encodeFiskMessage(message, { go: opts.go === true });
  } catch (err) {
    const set = notSent((err as Error).message);
    return { subject, request, requestText, set, outcome: toolOutcome(set) };
  }
  const problem = outgoingProblem(deps, requestText);
  if (problem) {
    const set = notSent(problem);
    return { subject, request, requestText, set, outcome: toolOutcome(set) };
  }
  const set = await readReplySet(deps, {
    subject,
    body: new TextEncoder().encode(requestText),
    inbox: freshInbox(deps.random),
    request,
    terminals: TERMINALS,
    idleMs: idleBound(opts.idleMs, opts.allowShortIdle, DEFAULT_IDLE_MS),
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.onEntry ? { onEntry: opts.onEntry } : {}),
    ...livenessFor(deps, identity, opts.liveness),
  });
  const validate = deps.validate;
  const verdicts = validate ? set.entries.map((e) => (e.message.data.length > 0 ? validate(textOf(e.message.data)) : undefined)) : undefined;
  return { subject, request, requestText, set, outcome: toolOutcome(set), ...(verdicts ? { verdicts } : {}) };
}
