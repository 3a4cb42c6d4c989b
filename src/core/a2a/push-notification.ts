/**
 * A push notification as an agent POSTs it: v1.0 sends a StreamResponse (`{task}`,
 * `{statusUpdate}`, `{artifactUpdate}`), v0.3 a Task or an update event with its `kind`, v0.1
 * and v0.2 a Task. It is read with the same functions as any answer, then checked against the
 * task its receiver was made for, and folded only when it says something the task does not know.
 */
import { isJsonObject } from "../json/index.ts";
import { httpFrameHeaders, type WireFrameInput } from "../wire/index.ts";
import type { Dialect } from "./dialect.ts";
import { readAnswer, readResult, type A2aEvent } from "./events.ts";
import type { ReceivedNotification } from "./push-receiver.ts";
import type { TaskRecord } from "./task-fold.ts";
import { isTerminal } from "./task-state.ts";

export type PushReading =
  | { readonly ok: true; readonly event: A2aEvent; readonly taskId?: string; readonly notes: readonly string[] }
  | { readonly ok: false; readonly problem: string };

/** The task an event names, when it names one. */
export function eventTaskId(event: A2aEvent): string | undefined {
  if (event.kind === "tasks" || event.kind === "other" || event.kind === "error") return undefined;
  return event.taskId || undefined;
}

/** Reads a notification's body in `dialect` (the receiver's thread); JSON-RPC envelopes are unwrapped, and noted. */
export function readPushNotification(text: string, dialect: Dialect | undefined): PushReading {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, problem: `not JSON: ${(err as Error).message}` };
  }
  const wrapped = isJsonObject(value) && value.jsonrpc === "2.0";
  const event = wrapped ? readAnswer(value, dialect, "jsonrpc") : readResult(value, dialect);
  const notes = [...(wrapped ? ["wrapped in a JSON-RPC envelope; a push notification is the bare object"] : []), ...event.notes];
  const taskId = eventTaskId(event);
  return { ok: true, event, ...(taskId !== undefined ? { taskId } : {}), notes };
}

/** When the task's shown state was reached, and when the notification reached the backend (both wall ms). */
export interface PushTiming {
  readonly arrivedAt: number;
  readonly lastStepAt: number | undefined;
}

/**
 * Whether a notification tells the task something new: a state other than the one shown, which
 * reached the backend after that state was seen (a stream and the pushes race), never leaving a
 * terminal state nor going back to `submitted`; or an artifact the task does not hold yet. An
 * appended chunk is left out: whether the stream carried it too cannot be told.
 */
export function pushIsNewer(record: TaskRecord, event: A2aEvent, timing: PushTiming): boolean {
  if (event.kind === "artifact") return !event.chunk.append && !record.artifacts.some((a) => a.artifactId === event.chunk.artifactId);
  if (event.kind !== "task" && event.kind !== "status") return false;
  const state = event.state?.state;
  if (state === undefined) return false;
  if (record.state === undefined) return true;
  if (isTerminal(record.state) || state === record.state || state === "submitted") return false;
  return timing.lastStepAt === undefined || timing.arrivedAt >= timing.lastStepAt;
}

const encoder = new TextEncoder();

/** The notification as the wire log keeps it: the same channel as the workbench's other A2A frames, its bytes exactly. */
export function pushFrame(n: ReceivedNotification, url: string, receiverId: string, taskId: string): WireFrameInput {
  const headers = httpFrameHeaders(n.headers, { ":method": "POST" });
  return {
    channel: "a2a-http",
    direction: "in",
    target: url,
    ...(headers ? { headers } : {}),
    correlationId: `a2a-push-${receiverId}`,
    bytes: encoder.encode(n.text),
    note: `push notification #${n.seq} for task ${taskId}`,
  };
}
