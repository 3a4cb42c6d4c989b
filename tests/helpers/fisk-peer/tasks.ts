/**
 * The task endpoint (Gen 2): admission, the ack with the conversation token, the scripted events
 * and questions, and the terminal `result` or `error`. While a task runs, its cancel and elicit
 * subjects are held by this instance only (task-watches.ts). A finished prompt turn is kept in the
 * session store, and `request.read` is answered from it (conversations.ts).
 */
import type { Msg } from "@nats-io/transport-node";
import { REQUEST_KINDS } from "../../../src/core/packs/fisk-ai/protocol.ts";
import { ackBody, endBody, questionBody } from "./bodies.ts";
import { answerRead, type ConversationStore, type TurnLog } from "./conversations.ts";
import { intake, taskWording } from "./intake.ts";
import { ReplySet, Waker, type PeerRuntime } from "./runtime.ts";
import { watchTask } from "./task-watches.ts";
import type { FiskPeerOptions, TaskEnd, TaskScript, TaskStep } from "./types.ts";
import { id, ksuid, replyContextOf } from "./wire.ts";

const REQUEST_IDS: ReadonlySet<string> = new Set(REQUEST_KINDS.map((k) => id(`request.${k}`)));
const DEFAULT_WINDOW_MS = 120_000;
const SUSPENDED: TaskEnd = { kind: "error", stop_reason: "suspended", error: "the run suspended and left a resumable session", code: "suspended" };

/** The question a run is holding; the elicit watch answers it. */
export interface OpenQuestion {
  readonly id: string;
  readonly kind: string;
  readonly windowMs: number;
  deadline: number;
  answer?: { readonly kind: string; readonly value: Record<string, unknown> };
}

export interface RunningTask {
  readonly request: string;
  readonly set: ReplySet;
  readonly waker: Waker;
  cancelled: boolean;
  question: OpenQuestion | undefined;
  /** Unsubscribes the cancel and elicit watches. */
  release: () => void;
  /** A prompt turn's blocks, kept in the store when it finishes. */
  readonly turn: TurnLog | undefined;
}

export interface TaskConfig {
  readonly identity: string;
  readonly task: FiskPeerOptions["task"];
  readonly workers: number;
  readonly elicit: boolean;
  /** Undefined: no session store, so reads are refused. */
  readonly store: ConversationStore | undefined;
}

type Ask = "answered" | "unanswered" | "cancelled" | "stopped";

export function taskHandler(rt: PeerRuntime, cfg: TaskConfig): { handle: (msg: Msg) => void; running: () => string[] } {
  const running = new Map<string, RunningTask>();

  const finish = (task: RunningTask, end: TaskEnd) => {
    // The watches go first: once the caller sees the terminal, a cancel finds no responders.
    task.release();
    running.delete(task.request);
    if (task.turn) cfg.store?.record(task.turn, end.usage);
    task.set.end(id(end.kind), endBody(end));
  };

  async function ask(task: RunningTask, step: Extract<TaskStep, { kind: "elicit" }>): Promise<Ask> {
    const q = step.question;
    const windowMs = step.windowMs ?? DEFAULT_WINDOW_MS;
    const open: OpenQuestion = { id: q.question_id ?? ksuid(), kind: q.kind, windowMs, deadline: performance.now() + windowMs };
    task.set.publish(id(`elicit.request.${q.kind}`), questionBody(q, open.id, windowMs));
    task.question = open;
    try {
      for (;;) {
        if (open.answer) return open.answer.kind === "no_operator" ? "unanswered" : "answered";
        if (task.cancelled) return "cancelled";
        // A waiting moves the deadline; the loop reads it again after each wake-up.
        const left = open.deadline - performance.now();
        if (left <= 0) return "unanswered";
        if ((await rt.sleep(left, task.waker)) === "stopped") return "stopped";
      }
    } finally {
      task.question = undefined;
    }
  }

  /** Waits `ms` (forever for Infinity) unless cancelled; false when the peer stopped. */
  async function pause(task: RunningTask, ms: number): Promise<boolean> {
    const until = performance.now() + ms;
    while (!task.cancelled && performance.now() < until) {
      if ((await rt.sleep(until - performance.now(), task.waker)) === "stopped") return false;
    }
    return true;
  }

  async function run(task: RunningTask, script: TaskScript, stream: boolean): Promise<void> {
    for (const step of script.steps ?? []) {
      if (task.cancelled) return finish(task, SUSPENDED);
      if (step.kind === "event") {
        if (step.delayMs && !(await pause(task, step.delayMs))) return;
        if (task.cancelled) return finish(task, SUSPENDED);
        if (stream && task.set.publish(id(`event.${step.event}`), { block: step.block })) task.turn?.blocks.push({ event: step.event, block: step.block });
      } else if (step.kind === "pause" || step.kind === "until-cancel") {
        if (!(await pause(task, step.kind === "pause" ? step.ms : Infinity))) return;
      } else {
        const outcome = await ask(task, step);
        if (outcome === "stopped") return;
        if (outcome === "cancelled") return finish(task, SUSPENDED);
        if (outcome === "unanswered") {
          // An unanswered approval aborts the gated call; other kinds wait for request.answer.
          if (step.question.kind === "approve") return finish(task, SUSPENDED);
          const toolUse = step.question.tool_use_id ?? "(no tool_use id)";
          return finish(task, { kind: "error", stop_reason: "suspended", error: `the run deferred answers to ${toolUse}; send them with request.answer`, code: "deferred" });
        }
      }
    }
    if (task.cancelled) return finish(task, SUSPENDED);
    finish(task, script.end ?? { kind: "result", stop_reason: "end_turn" });
  }

  const scriptFor = (req: Record<string, unknown>): TaskScript => (typeof cfg.task === "function" ? cfg.task(req) : (cfg.task ?? {}));

  const handle = (msg: Msg): void => {
    const checked = intake(msg.data, "gen2", (p) => REQUEST_IDS.has(p), taskWording);
    if (!checked.ok) return rt.microError(msg, 400, checked.description, "task");
    if (!msg.reply) return;
    const req = checked.value;
    // A read takes no turn: no admission, no watches, answered from the store at once.
    if (checked.protocol === id("request.read")) return answerRead(rt, msg, req, cfg.store);
    const script = scriptFor(req);
    const set = new ReplySet(rt, msg, replyContextOf(req, rt.me));
    const request = set.ctx.request;
    const refuse = (reason: string, code: string) => {
      set.ack(ackBody(false, reason));
      set.end(id("error"), endBody({ kind: "error", error: reason, code }));
    };
    if (script.refuse) return refuse(script.refuse.reason, script.refuse.code);
    if (running.has(request)) return refuse(`request ${JSON.stringify(request)} is already in flight here`, "duplicate_request");
    if (running.size >= cfg.workers) return refuse(`this worker is running its maximum of ${cfg.workers} prompts`, "capacity");

    const budget = req.budget as { max_tokens?: unknown } | undefined;
    const callerToken = typeof req.conversation_token === "string" ? req.conversation_token : undefined;
    const token = script.ack?.conversation_token ?? callerToken ?? ksuid();
    const maxTokens = script.ack?.max_tokens ?? (typeof budget?.max_tokens === "number" ? budget.max_tokens : undefined);
    const turn = checked.protocol === id("request.prompt") ? { token, maxTokens, blocks: [{ event: "prompt", block: { text: String(req.prompt) } }] } : undefined;
    const task: RunningTask = { request, set, waker: new Waker(), cancelled: false, question: undefined, release: () => {}, turn };
    running.set(request, task);
    // Watches are held before the ack, so a cancel sent on seeing the ack always lands.
    task.release = watchTask(rt, cfg.identity, task, cfg.elicit);
    set.ack(ackBody(true, undefined, token, maxTokens));
    rt.track(
      run(task, script, req.stream !== false).finally(() => {
        task.release();
        running.delete(request);
      }),
    );
  };
  return { handle, running: () => [...running.keys()] };
}
