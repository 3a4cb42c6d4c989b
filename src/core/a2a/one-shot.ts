/**
 * One message to an agent, from its card or base URL to its answer: fetch the card, choose the
 * interface (a dialect and binding asked for, or the card's preferred one Patchbay speaks), send,
 * follow the stream, and say how it ended. The command line's `call a2a` is this, and so are
 * the workbench's quick sends.
 */
import { fetchAgentCard, type CardAttempt, type FetchedCard } from "./card-fetch.ts";
import type { CardInterface } from "./card.ts";
import type { Binding, Dialect } from "./dialect.ts";
import { exchange, type AnswerFrame, type ExchangeLimits, type ExchangePorts, type ExchangeResult } from "./exchange.ts";
import { buildRequest, type HeaderOptions, type RequestTarget } from "./requests.ts";
import type { TaskRecord } from "./task-fold.ts";
import { isTerminal } from "./task-state.ts";

export interface OneShotInput {
  readonly card: string;
  readonly text: string;
  readonly dialect?: Dialect;
  readonly binding?: Binding;
  readonly stream?: boolean;
  readonly headers?: Readonly<Record<string, string>>;
  readonly versionHeader?: HeaderOptions["versionHeader"];
  readonly limits?: ExchangeLimits;
  /** The whole call's time limit, card included: past it the call gives up. */
  readonly deadlineMs?: number;
  readonly signal?: AbortSignal;
  /**
   * A task left running when the call gives up (time limit, interrupted, a silent stream) is
   * canceled on the agent, so it does not go on unseen; the outcome says how that went.
   */
  readonly cancelOnGiveUp?: boolean;
  readonly onFrame?: (frame: AnswerFrame) => void;
  /** The card was read and an interface chosen, before the message goes out. */
  readonly onTarget?: (card: FetchedCard, target: RequestTarget) => void;
  /** New ids: message ids, and v0.1's client-chosen task id. */
  readonly newId: () => string;
}

export type OneShotOutcome =
  | { readonly ok: true; readonly kind: "message"; readonly text: string }
  | { readonly ok: true; readonly kind: "task"; readonly task: TaskRecord }
  | { readonly ok: false; readonly reason: string; readonly task?: TaskRecord };

export interface OneShotResult {
  readonly attempts: readonly CardAttempt[];
  readonly card?: FetchedCard;
  readonly target?: RequestTarget;
  readonly exchange?: ExchangeResult;
  readonly outcome: OneShotOutcome;
}

/** How long the cancel of a task the call gave up on may take. */
export const GIVE_UP_CANCEL_MS = 5_000;
const GAVE_UP: ReadonlySet<string> = new Set(["aborted", "headers-timeout", "idle-timeout"]);

const describe = (i: CardInterface): string => `${i.bindingName} ${i.version} at ${i.url}`;

/** The interface to talk to, or why there is none. */
export function chooseInterface(interfaces: readonly CardInterface[], dialect: Dialect | undefined, binding: Binding | undefined, alsoPossible: readonly Dialect[] = []): CardInterface | string {
  // A card that fits another dialect as well may be talked to in that one when asked.
  const preferred = interfaces[0];
  if (dialect !== undefined && preferred && alsoPossible.includes(dialect) && !interfaces.some((i) => i.dialect === dialect)) {
    return chooseInterface([{ ...preferred, dialect, version: dialect }], dialect, binding);
  }
  const speakable = interfaces.filter((i) => i.binding !== undefined);
  const fits = speakable.filter((i) => (dialect === undefined || i.dialect === dialect) && (binding === undefined || i.binding === binding));
  const chosen = binding === undefined ? (fits.find((i) => i.binding === "jsonrpc") ?? fits[0]) : fits[0];
  if (chosen) return chosen;
  const asked = [dialect ? `A2A ${dialect}` : "", binding ?? ""].filter(Boolean).join(" over ");
  const offered = interfaces.length > 0 ? interfaces.map(describe).join("; ") : "no interface";
  return `the card offers no ${asked || "interface Patchbay speaks"} (it offers: ${offered})`;
}

function taskOutcome(task: TaskRecord | undefined, result: ExchangeResult): OneShotOutcome {
  if (!task) return { ok: false, reason: "the agent answered neither a message nor a task" };
  const state = task.state;
  if (state === "completed") return { ok: true, kind: "task", task };
  if (state && isTerminal(state)) return { ok: false, reason: `the task ended ${state}${lastText(task)}`, task };
  if (state === "input-required") return { ok: false, reason: `the task needs input${lastText(task)}`, task };
  if (state === "auth-required") return { ok: false, reason: "the task needs authentication the agent will ask for out of band", task };
  if (result.failure) return { ok: false, reason: result.failure.message, task };
  return { ok: false, reason: `the task is ${state ?? "in no known state"}; follow it with tasks/get or resubscribe`, task };
}

async function gaveUp(ports: ExchangePorts, target: RequestTarget, result: ExchangeResult, input: OneShotInput, pastDeadline: (() => boolean) | undefined): Promise<OneShotOutcome> {
  const failure = result.failure!;
  const why = failure.kind === "aborted" && pastDeadline?.() ? `the time limit of ${input.deadlineMs} ms was reached` : failure.kind === "aborted" ? "interrupted" : failure.message;
  const task = result.fold.tasks()[0];
  if (!task) return { ok: false, reason: `${why}${input.cancelOnGiveUp ? " before the agent named a task, so there is none to cancel" : ""}` };
  if (task.state && isTerminal(task.state)) return { ok: false, reason: `${why} after the task ended ${task.state}`, task };
  const canceled = input.cancelOnGiveUp ? await cancelTaskGivenUp(ports, target, task.taskId, input) : `; task ${task.taskId} may still be running`;
  return { ok: false, reason: `${why} while the task was ${task.state ?? "in no known state"}${canceled}`, task };
}

const lastText = (task: TaskRecord): string => {
  const text = task.steps[task.steps.length - 1]?.text;
  return text ? `: ${text}` : "";
};

/**
 * Cancels a task a caller gave up on (a time limit, an interrupt), within GIVE_UP_CANCEL_MS;
 * the result is words for the end of the reason the caller reports.
 */
export async function cancelTaskGivenUp(
  ports: ExchangePorts,
  target: RequestTarget,
  taskId: string,
  input: Pick<OneShotInput, "headers" | "versionHeader" | "onFrame" | "newId">,
): Promise<string> {
  const spec = buildRequest(target, "cancel", { taskId }, { ...(input.headers ? { headers: input.headers } : {}), ...(input.versionHeader ? { versionHeader: input.versionHeader } : {}) }, input.newId());
  const limits = { headersMs: GIVE_UP_CANCEL_MS, idleMs: GIVE_UP_CANCEL_MS };
  const result = await exchange(ports, spec, { dialect: target.dialect, binding: target.binding, limits, ...(input.onFrame ? { onFrame: input.onFrame } : {}) });
  const error = result.frames.flatMap((f) => (f.event?.kind === "error" ? [f.event.error] : []))[0] ?? result.failure?.error;
  if (error) return `; canceling task ${taskId} was refused: ${error.name} (${error.code})${error.message ? `: ${error.message}` : ""}`;
  if (result.failure) return `; canceling task ${taskId} failed: ${result.failure.message}`;
  const state = result.fold.tasks().find((t) => t.taskId === taskId)?.state ?? result.fold.tasks()[0]?.state;
  return `; task ${taskId} was canceled on the agent (now ${state ?? "in no state it named"})`;
}

export async function sendOneMessage(ports: ExchangePorts, input: OneShotInput): Promise<OneShotResult> {
  if (input.deadlineMs === undefined) return sendWithin(ports, input, undefined);
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), input.deadlineMs);
  const onAbort = () => deadline.abort();
  input.signal?.addEventListener("abort", onAbort, { once: true });
  if (input.signal?.aborted) deadline.abort();
  try {
    return await sendWithin(ports, { ...input, signal: deadline.signal }, () => !input.signal?.aborted);
  } finally {
    clearTimeout(timer);
    input.signal?.removeEventListener("abort", onAbort);
  }
}

/** `pastDeadline` tells an abort of the deadline from the caller's own. */
async function sendWithin(ports: ExchangePorts, input: OneShotInput, pastDeadline: (() => boolean) | undefined): Promise<OneShotResult> {
  // Asking for v1.0 asks for its card too; otherwise the agent's default (0.3, when it has several).
  const version = input.dialect === "1.0" && input.versionHeader !== "omit" ? "1.0" : undefined;
  const fetched = await fetchAgentCard(ports, input.card, { ...(version ? { version } : {}), ...(input.headers ? { headers: input.headers } : {}), ...(input.limits ? { limits: input.limits } : {}), ...(input.signal ? { signal: input.signal } : {}) });
  const card = fetched.found;
  if (!card) {
    if (input.signal?.aborted && pastDeadline?.()) return { attempts: fetched.attempts, outcome: { ok: false, reason: `the time limit of ${input.deadlineMs} ms was reached while reading the Agent Card` } };
    const last = fetched.attempts[fetched.attempts.length - 1];
    return { attempts: fetched.attempts, outcome: { ok: false, reason: `no Agent Card: ${fetched.attempts.map((a) => `${a.url} → ${a.problem ?? a.status}`).join("; ") || last?.problem || "nothing tried"}` } };
  }
  const chosen = chooseInterface(card.interfaces, input.dialect, input.binding, card.dialect.alsoPossible);
  if (typeof chosen === "string") return { attempts: fetched.attempts, card, outcome: { ok: false, reason: chosen } };
  const target: RequestTarget = { url: chosen.url, dialect: chosen.dialect, binding: chosen.binding!, ...(chosen.tenant ? { tenant: chosen.tenant } : {}) };
  input.onTarget?.(card, target);
  const spec = buildRequest(
    target,
    input.stream ? "stream" : "send",
    { message: { messageId: input.newId(), parts: [{ kind: "text", text: input.text }] }, ...(target.dialect === "0.1" ? { taskId: input.newId() } : {}) },
    { ...(input.headers ? { headers: input.headers } : {}), ...(input.versionHeader ? { versionHeader: input.versionHeader } : {}) },
    input.newId(),
  );
  const result = await exchange(ports, spec, { dialect: target.dialect, binding: target.binding, ...(input.limits ? { limits: input.limits } : {}), ...(input.signal ? { signal: input.signal } : {}), ...(input.onFrame ? { onFrame: input.onFrame } : {}) });
  const base = { attempts: fetched.attempts, card, target, exchange: result };
  if (result.failure && GAVE_UP.has(result.failure.kind)) return { ...base, outcome: await gaveUp(ports, target, result, input, pastDeadline) };
  const events = result.frames.flatMap((f) => (f.event ? [f.event] : []));
  const error = events.find((e) => e.kind === "error");
  if (error && error.kind === "error") return { ...base, outcome: { ok: false, reason: `${error.error.name} (${error.error.code})${error.error.message ? `: ${error.error.message}` : ""}${error.error.reason ? ` [${error.error.reason}]` : ""}` } };
  if (result.failure && result.failure.kind !== "stream-broken") return { ...base, outcome: { ok: false, reason: result.failure.message } };
  const message = events.find((e) => e.kind === "message");
  const task = result.fold.tasks()[0];
  if (message?.kind === "message" && !task) return { ...base, outcome: { ok: true, kind: "message", text: message.text } };
  return { ...base, outcome: taskOutcome(task, result) };
}
