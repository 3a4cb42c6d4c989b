import type { Clock } from "../../env/environment.ts";
import { cancelSubject, elicitSubject, FISK_PROTOCOLS, type FiskMessage } from "../../fisk/codec/index.ts";
import { NAMESPACE } from "../../packs/fisk-ai/protocol.ts";
import type { NatsMessage, NatsSubscription } from "../../nats/port.ts";
import { intakeOneOf, type FiskValidator } from "./fisk-intake.ts";
import type { EndpointStats } from "./micro-service.ts";
import { microError, replyBytes, send, type ReplyTarget } from "./reply-stream.ts";
import { cancelShape, CANCELS, ELICIT_ANSWERS, elicitShape } from "./task-intake.ts";
import type { Approval } from "./task-runner.ts";

/**
 * The subjects a running task holds: `choria.fisk-ai.cancel.<identity>.<request>` and
 * `choria.fisk-ai.elicit.<identity>.<request>`. Plain subscriptions, no queue group: only the
 * instance running the task hears them, and once it ends nobody does (the caller gets no
 * responders). Each answer is a single `ack` with sequence 0, or a micro 400/404.
 */

/** The question a task holds open: its window restarts on each waiting. */
export interface OpenQuestion {
  readonly id: string;
  readonly kind: "approve";
  answer(approval: Approval): void;
  restartWindow(): void;
}

export interface WatchedTask {
  readonly request: string;
  question: OpenQuestion | undefined;
  cancel(reason: string | undefined): void;
}

export interface WatchDeps {
  readonly identity: string;
  readonly target: (inbox: string, answering?: FiskMessage) => ReplyTarget;
  readonly subscribe: (subject: string, onMessage: (msg: NatsMessage) => void) => NatsSubscription;
  readonly validate?: FiskValidator;
  readonly stats: EndpointStats;
  readonly clock: Pick<Clock, "now">;
}

const REPLY_PREFIX = `${NAMESPACE}.elicit.reply.`;

function ack(deps: WatchDeps, msg: NatsMessage, answering: FiskMessage): void {
  const to = deps.target(msg.reply!, answering);
  send(to, replyBytes(to, FISK_PROTOCOLS.ack, 0, { accepted: true }));
}

function refuse(deps: WatchDeps, msg: NatsMessage, code: number, description: string): void {
  deps.stats.error(code, description);
  microError(deps.target(msg.reply!), code, description);
}

function onCancel(deps: WatchDeps, task: WatchedTask, msg: NatsMessage): void {
  const checked = intakeOneOf<FiskMessage>(msg.data, CANCELS, "gen2", deps.validate, cancelShape);
  if (!checked.ok) return refuse(deps, msg, 400, checked.description);
  ack(deps, msg, checked.message);
  const reason = (checked.message as { reason?: string }).reason;
  task.cancel(reason);
}

function onElicit(deps: WatchDeps, task: WatchedTask, msg: NatsMessage): void {
  const checked = intakeOneOf<FiskMessage>(msg.data, ELICIT_ANSWERS, "gen2", deps.validate, elicitShape);
  if (!checked.ok) return refuse(deps, msg, 400, checked.description);
  const m = checked.message as FiskMessage & { question_id: string; choice?: string };
  const open = task.question;
  if (!open || open.id !== m.question_id) return refuse(deps, msg, 404, `this run is not waiting on question ${JSON.stringify(m.question_id)}`);
  if (m.protocol === FISK_PROTOCOLS.elicitWaiting) {
    open.restartWindow();
    return ack(deps, msg, m);
  }
  const kind = m.protocol.slice(REPLY_PREFIX.length);
  if (kind !== "no_operator" && kind !== open.kind) return refuse(deps, msg, 400, `question ${JSON.stringify(m.question_id)} asks for ${open.kind}, not ${kind}`);
  ack(deps, msg, m);
  open.answer(kind === "no_operator" ? "no_operator" : (m.choice as Approval));
}

/** Subscribes the task's two subjects; the release unsubscribes them (safe twice). */
export function watchTask(deps: WatchDeps, task: WatchedTask): () => void {
  const guarded = (fn: (msg: NatsMessage) => void) => (msg: NatsMessage) => {
    // A cancel or an answer nobody can be told about is not acted on.
    if (!msg.reply) return;
    deps.stats.time(deps.clock, () => fn(msg));
  };
  const subs = [
    deps.subscribe(cancelSubject(deps.identity, task.request), guarded((msg) => onCancel(deps, task, msg))),
    deps.subscribe(elicitSubject(deps.identity, task.request), guarded((msg) => onElicit(deps, task, msg))),
  ];
  let released = false;
  return () => {
    if (released) return;
    released = true;
    for (const sub of subs) {
      try {
        sub.unsubscribe();
      } catch {
        // A closed connection has dropped its subscriptions already.
      }
    }
  };
}
