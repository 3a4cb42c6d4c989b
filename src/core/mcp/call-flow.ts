/**
 * One tool call (or modern prompts/get, resources/read) from first request to final answer:
 * each `input_required` round shown and answered, the request sent again with the answers and
 * the echoed `requestState`, and the end named as a CallOutcome (a task included).
 */
import { isJsonObject } from "../json/index.ts";
import { outcomeFromError, outcomeFromResult, type ResultContext } from "./call-outcome.ts";
import type { CallOptions, CallOutcome, ClientCapabilityChoice, ClientHandlers } from "./connection-types.ts";
import type { ProtocolEra } from "./era.ts";
import { eraMismatch } from "./era-check.ts";
import { paramHeaders, type HeaderParam } from "./modern-headers.ts";
import { answerWithHandlers, type InputAnswers, type InputRound, isInputRequired, retryParams, roundOf } from "./mrtr.ts";
import type { ChannelRequestOptions } from "./request-channel.ts";
import { cancelled } from "./request-failure.ts";
import { createdTask } from "./tasks.ts";

export const DEFAULT_MAX_ROUNDS = 10;

export interface FlowDeps {
  exchange(method: string, params: Record<string, unknown>, options: ChannelRequestOptions): Promise<{ id: number; result: unknown }>;
  /** The default answer to a round: the connection's handlers. */
  answer(round: InputRound): Promise<InputAnswers>;
  readonly era: ProtocolEra;
}

type FlowOptions = Pick<CallOptions, "timeoutMs" | "signal" | "onProgress" | "onRequest" | "onInputRound" | "answerInput" | "maxInputRounds"> & {
  readonly headers?: Readonly<Record<string, string>>;
};

export type FlowEnd =
  | { readonly kind: "result"; readonly result: unknown }
  | { readonly kind: "error"; readonly error: unknown }
  | { readonly kind: "stopped"; readonly result: Record<string, unknown>; readonly message: string };

/**
 * Sends `method` and follows input rounds to the end. Only a modern connection has rounds; a
 * legacy server that answers input_required gets its answer back as it is (named elsewhere).
 */
async function rounds(deps: FlowDeps, method: string, first: Record<string, unknown>, options: FlowOptions): Promise<FlowEnd> {
  const max = options.maxInputRounds ?? DEFAULT_MAX_ROUNDS;
  let params = first;
  for (let index = 1; ; index++) {
    let answer: { id: number; result: unknown };
    try {
      answer = await deps.exchange(method, params, {
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
        ...(options.headers ? { headers: options.headers } : {}),
        onSent: (id) => options.onRequest?.(id, params),
      });
    } catch (error) {
      return { kind: "error", error };
    }
    const result = answer.result;
    if (deps.era !== "modern" || !isInputRequired(result)) return { kind: "result", result };
    const round = roundOf(index, answer.id, result);
    if ("problem" in round) return { kind: "stopped", result, message: `The server's input_required answer cannot be followed: ${round.problem}.` };
    options.onInputRound?.(round);
    if (index > max) return { kind: "stopped", result, message: `The server still wanted input after ${max} rounds; the call stopped there.` };
    const answers = options.answerInput ? await options.answerInput(round) : await deps.answer(round);
    if (options.signal?.aborted) return { kind: "error", error: cancelled(method, String(options.signal.reason ?? "aborted")) };
    if (answers === null) return { kind: "stopped", result, message: `Stopped at round ${index}: the server's input requests were not answered.` };
    params = retryParams(params, answers);
  }
}

/** A tools/call result as an outcome: checked against the negotiated version, its era shape named. */
function outcome(ctx: ResultContext & { readonly era: ProtocolEra }, result: unknown): CallOutcome {
  const named = outcomeFromResult(result, ctx);
  const eraIssue = eraMismatch("tools/call", result, ctx.era, ctx.negotiatedVersion);
  if (eraIssue && (named.kind === "invalid-result" || named.kind === "success")) return { ...named, eraIssue };
  return named;
}

export interface ToolExtras {
  readonly context: ResultContext & { readonly era: ProtocolEra };
  readonly headerParams: readonly HeaderParam[] | undefined;
  /** The params that ask for a task, when the call is to run as one. */
  readonly taskParams: ((params: Record<string, unknown>) => Record<string, unknown>) | undefined;
}

async function tool(deps: FlowDeps, params: Record<string, unknown>, options: CallOptions, extras: ToolExtras): Promise<CallOutcome> {
  const headers = extras.headerParams ? paramHeaders(extras.headerParams, params.arguments) : {};
  const sent = extras.taskParams ? extras.taskParams(params) : params;
  const end = await rounds(deps, "tools/call", sent, { ...options, ...(Object.keys(headers).length > 0 ? { headers } : {}) });
  if (end.kind === "error") return outcomeFromError(end.error);
  if (end.kind === "stopped") return { kind: "input-required", result: end.result, message: end.message };
  const task = createdTask(deps.era, end.result);
  if (task && !("problem" in task) && isJsonObject(end.result)) return { kind: "task", task, result: end.result };
  const named = outcome(extras.context, end.result);
  if (task && "problem" in task && named.kind === "invalid-result") return { ...named, eraIssue: task.problem };
  return named;
}

function defaultAnswer(round: InputRound, handlers: ClientHandlers, declared: ClientCapabilityChoice): Promise<InputAnswers> {
  return answerWithHandlers(round, handlers, declared);
}

export const callWithInput = { rounds, tool, outcome, defaultAnswer };
