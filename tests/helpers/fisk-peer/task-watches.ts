/**
 * The subjects a running task holds: `choria.fisk-ai.cancel.<identity>.<request>` and
 * `choria.fisk-ai.elicit.<identity>.<request>`. Plain subscriptions (no queue group), so only the
 * instance running the task hears them; each answer is a single `ack` with sequence 0, or a micro
 * error.
 */
import type { Msg, Subscription } from "@nats-io/transport-node";
import { NAMESPACE } from "../../../src/core/packs/fisk-ai/protocol.ts";
import { ackBody } from "./bodies.ts";
import { expectWording, intake } from "./intake.ts";
import type { PeerRuntime } from "./runtime.ts";
import type { RunningTask } from "./tasks.ts";
import { id, message, replyContextOf, subjects } from "./wire.ts";

const CANCEL = id("cancel");
const WAITING = id("elicit.waiting");
const REPLY_PREFIX = id("elicit.reply.");

function ack(rt: PeerRuntime, msg: Msg, value: Record<string, unknown>): void {
  if (msg.reply) rt.send(msg.reply, message(id("ack"), replyContextOf(value, rt.me), 0, ackBody(true)), "fisk-ai", false, msg);
}

function onCancel(rt: PeerRuntime, task: RunningTask, msg: Msg): void {
  const checked = intake(msg.data, "gen2", (p) => p === CANCEL, expectWording(CANCEL));
  if (!checked.ok) return rt.microError(msg, 400, checked.description, "cancel");
  ack(rt, msg, checked.value);
  // The run stops at its next boundary; an open question closes with it.
  task.cancelled = true;
  task.waker.wake();
}

function onElicit(rt: PeerRuntime, task: RunningTask, msg: Msg): void {
  const accepts = (p: string) => p === WAITING || (p.startsWith(REPLY_PREFIX) && !p.slice(REPLY_PREFIX.length).includes("."));
  const checked = intake(msg.data, "gen2", accepts, expectWording(`${NAMESPACE}.elicit.reply.<kind>`));
  if (!checked.ok) return rt.microError(msg, 400, checked.description, "elicit");
  const questionId = String(checked.value.question_id);
  const open = task.question;
  if (!open || open.id !== questionId || open.answer || task.cancelled) {
    return rt.microError(msg, 404, `this run is not waiting on question ${JSON.stringify(questionId)}`, "elicit");
  }
  if (checked.protocol === WAITING) {
    open.deadline = performance.now() + open.windowMs;
    return ack(rt, msg, checked.value);
  }
  const kind = checked.protocol.slice(REPLY_PREFIX.length);
  if (kind !== "no_operator" && kind !== open.kind) {
    return rt.microError(msg, 400, `question ${JSON.stringify(questionId)} asks for ${open.kind}, not ${kind}`, "elicit");
  }
  open.answer = { kind, value: checked.value };
  ack(rt, msg, checked.value);
  task.waker.wake();
}

/** Subscribes the task's watches; the returned release unsubscribes them (safe to call twice). */
export function watchTask(rt: PeerRuntime, identity: string, task: RunningTask, elicit: boolean): () => void {
  const subs: Subscription[] = [rt.nc.subscribe(subjects.cancel(identity, task.request), { callback: rt.callback("cancel", (msg) => onCancel(rt, task, msg)) })];
  if (elicit) subs.push(rt.nc.subscribe(subjects.elicit(identity, task.request), { callback: rt.callback("elicit", (msg) => onElicit(rt, task, msg)) }));
  let released = false;
  return () => {
    if (released || rt.nc.isClosed()) return;
    released = true;
    for (const sub of subs) sub.unsubscribe();
  };
}
