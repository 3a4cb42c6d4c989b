/**
 * What an A2A exchange came to, in the harness's words: a message or a completed task is a
 * result, any other task state is named, an agent's error is a JSON-RPC error with its code
 * (a REST error body with its HTTP status), and an answer that never came is a transport error
 * or a timeout. The body is the response's result (the REST body), for a stream the last event.
 */
import type { A2aEvent, AnswerFrame, Binding, Dialect, ExchangeResult, Operation } from "../../src/core/a2a/index.ts";
import { isInterrupted, isTerminal } from "../../src/core/a2a/index.ts";
import type { StepOutcome } from "../../src/core/harness/collection-types.ts";
import type { StepObservation } from "../../src/core/harness/run-types.ts";
import { isJsonObject } from "../../src/core/json/index.ts";

/** Operations whose answer must be a task or a message. */
const TASK_OPERATIONS: ReadonlySet<Operation> = new Set(["send", "stream", "get", "cancel", "subscribe"]);

function errorOf(result: ExchangeResult): { error: NonNullable<Extract<A2aEvent, { kind: "error" }>["error"]> } | undefined {
  for (const frame of result.frames) if (frame.event?.kind === "error") return { error: frame.event.error };
  // A REST error is an HTTP status with an error body; a body that is not JSON is no answer.
  const last = result.frames[result.frames.length - 1];
  if (result.failure?.kind === "http" && result.failure.error && last && last.problem === undefined) return { error: result.failure.error };
  return undefined;
}

export function a2aOutcome(result: ExchangeResult, operation: Operation, why: "timeout" | "cancelled" | null, timeoutMs: number): StepOutcome {
  const failure = result.failure;
  if (failure?.kind === "aborted") {
    return why === "timeout" ? { kind: "timeout", message: `no complete answer within the step's time limit of ${timeoutMs} ms` } : { kind: "cancelled", message: "cancelled before the agent answered" };
  }
  if (failure?.kind === "headers-timeout" || failure?.kind === "idle-timeout") return { kind: "timeout", message: failure.message };
  const refused = errorOf(result);
  if (refused) {
    const e = refused.error;
    return { kind: "json-rpc-error", code: e.code, message: `${e.name}${e.name.includes(String(e.code)) ? "" : ` (${e.code})`}${e.message ? `: ${e.message}` : ""}${e.reason ? ` [${e.reason}]` : ""}` };
  }
  if (failure?.kind === "not-json") return { kind: "invalid-answer", message: failure.message };
  if (failure) return { kind: "transport-error", message: failure.message };
  const task = result.fold.tasks()[0];
  if (task) {
    if (task.state === "completed") return { kind: "result", message: `task ${task.taskId} completed` };
    if (task.state === undefined) return { kind: "invalid-answer", message: `task ${task.taskId} is in no state the dialects name` };
    const text = task.steps[task.steps.length - 1]?.text;
    return { kind: "task-state", state: task.state, message: `task ${task.taskId} is ${task.state}${text ? `: ${text}` : ""}` };
  }
  const events = result.frames.flatMap((f) => (f.event ? [f.event] : []));
  if (events.some((e) => e.kind === "message")) return { kind: "result", message: "the agent answered with a message" };
  if (events.length === 0) return { kind: "invalid-answer", message: "the agent sent no answer" };
  if (TASK_OPERATIONS.has(operation)) return { kind: "invalid-answer", message: "the agent answered neither a task nor a message" };
  return { kind: "result", message: `${operation} answered` };
}

function parsed(frame: AnswerFrame): unknown {
  try {
    return JSON.parse(frame.text) as unknown;
  } catch {
    return undefined;
  }
}

/** JSON-RPC: the last response's result (the whole response for an error); REST: the last body. */
export function a2aBody(result: ExchangeResult, binding: Binding): unknown {
  for (let i = result.frames.length - 1; i >= 0; i--) {
    const value = parsed(result.frames[i]!);
    if (value === undefined) continue;
    if (binding === "jsonrpc" && isJsonObject(value) && "result" in value && !("error" in value)) return value.result;
    return value;
  }
  return null;
}

const KINDS: Readonly<Record<A2aEvent["kind"], string>> = { task: "task", status: "status-update", artifact: "artifact-update", message: "message", tasks: "tasks", other: "other", error: "error" };

/** Whether an event ends a stream: v0.x marks it `final`, v1.0 ends at a terminal or interrupted state. */
function ends(event: A2aEvent | undefined, dialect: Dialect): boolean {
  if (!event) return false;
  if (event.kind === "message" || event.kind === "error") return true;
  if (event.kind === "status" && event.final === true) return true;
  if ((event.kind === "status" || event.kind === "task") && event.state && dialect === "1.0") return isTerminal(event.state.state) || isInterrupted(event.state.state);
  return false;
}

export function a2aStream(result: ExchangeResult, dialect: Dialect): StepObservation["stream"] {
  if (!(result.headers["content-type"] ?? "").toLowerCase().includes("text/event-stream")) return undefined;
  const kinds = result.frames.map((f) => (f.event ? KINDS[f.event.kind] : "unreadable"));
  return { kinds, final: ends(result.frames[result.frames.length - 1]?.event, dialect) };
}
