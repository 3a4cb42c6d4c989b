import { FISK_PROTOCOLS, mintKsuid, type FiskMessage, type FiskRequest, type Identity, type IdContext } from "../../fisk/codec/index.ts";
import type { Clock } from "../../env/environment.ts";
import type { NatsMessage, NatsPort, NatsSubscription } from "../../nats/port.ts";
import { fetchConversation } from "./conversation-share.ts";
import { newConversation, type Conversation, type ConversationStore } from "./conversations.ts";
import { intakeOneOf, type FiskValidator } from "./fisk-intake.ts";
import type { EndpointStats } from "./micro-service.ts";
import { microError, ReplyStream, type ReplyTarget } from "./reply-stream.ts";
import { requestShape, TASK_REQUESTS } from "./task-intake.ts";
import { runSteps, type Approval, type TurnEnd } from "./task-runner.ts";
import { readScript } from "./task-script.ts";
import { Turn, type TurnDeps } from "./task-turn.ts";
import { watchTask } from "./task-watches.ts";
import { answerRead, replayInto } from "./task-read.ts";

/**
 * The task endpoint (Gen 2, `choria.fisk-ai.task.<identity>`): `request.prompt|answer|resume|read`
 * answered by a reply set from the scripted runner. Admission refuses at once (`ack:false`, then
 * an `error` with `draining`, `capacity`, `duplicate_request`, `conversation_busy` or
 * `unknown_conversation`); an accepted turn holds its cancel and elicit subjects before its ack.
 * A conversation another instance holds is taken over from it first.
 */

export interface TaskEndpointConfig extends TurnDeps {
  readonly identity: string;
  readonly me: Identity;
  readonly port: NatsPort;
  readonly clock: Clock;
  readonly ids: IdContext;
  /** Turns running at once before a task is refused for capacity. */
  readonly workers: number;
  readonly store: ConversationStore;
  readonly validate?: FiskValidator;
  readonly stats: EndpointStats;
  readonly warn: (message: string) => void;
  /** How long to wait for a sibling instance to hand a conversation over. */
  readonly shareWaitMs?: number;
}

type Req = FiskRequest & { conversation_token?: string; budget?: { max_tokens?: number }; answer?: { tool_use_id: string; kind: string; answer: string; choice?: string }; tool_hints?: string[] };

const approvalOf = (a: NonNullable<Req["answer"]>): Approval => (a.answer === "no_operator" ? "no_operator" : (a.choice as Approval));

export class TaskEndpoint {
  readonly #cfg: TaskEndpointConfig;
  readonly #running = new Map<string, Turn | "admitting">();
  readonly #work = new Set<Promise<void>>();
  #stopping = false;

  constructor(cfg: TaskEndpointConfig) {
    this.#cfg = cfg;
  }

  /** Turns running (or being admitted) now. */
  get inFlight(): number {
    return this.#running.size;
  }

  get workers(): number {
    return this.#cfg.workers;
  }

  target(inbox: string, answering?: FiskMessage): ReplyTarget {
    const { port, me, ids, warn } = this.#cfg;
    const tags = answering ? { request: answering.request, conversation: answering.conversation, sender: answering.sender } : { request: "", conversation: "" };
    return { port, inbox, answering: tags, me, ids, onSendError: warn };
  }

  handle(msg: NatsMessage): void {
    this.#cfg.stats.time(this.#cfg.clock, () => this.#dispatch(msg));
  }

  /** Refuses new turns, ends the running ones (each still gets its terminal) and waits for them. */
  async stop(): Promise<void> {
    this.#stopping = true;
    for (const turn of this.#running.values()) if (turn !== "admitting") turn.cancel("the agent stopped serving");
    while (this.#work.size > 0) await Promise.all([...this.#work]);
  }

  #dispatch(msg: NatsMessage): void {
    // fisk-ai's first send fails ("no reply subject"): there is nobody to answer.
    if (!msg.reply) return;
    const checked = intakeOneOf<Req>(msg.data, TASK_REQUESTS, "gen2", this.#cfg.validate, requestShape);
    if (!checked.ok) {
      this.#cfg.stats.error(400, checked.description);
      microError(this.target(msg.reply), 400, checked.description);
      return;
    }
    this.#track(this.#admit(msg.reply, checked.message));
  }

  #track(work: Promise<void>): void {
    const settled = work.catch((err: unknown) => this.#cfg.warn(`a task failed to answer: ${(err as Error).message}`)).finally(() => this.#work.delete(settled));
    this.#work.add(settled);
  }

  #refuse(stream: ReplyStream, reason: string, code: string): void {
    stream.ack(false, reason);
    stream.finish(FISK_PROTOCOLS.error, { stop_reason: "error", error: reason, code });
  }

  /** The conversation a request continues: held here, taken from a sibling, or why there is none. */
  async #conversation(token: string, reading = false): Promise<Conversation | "busy" | undefined> {
    const { store, port, identity, shareWaitMs } = this.#cfg;
    // A read takes no turn: it may replay a conversation whose turn runs here.
    if (store.isBusy(token) && !reading) return "busy";
    const held = store.get(token);
    if (held) return held;
    const fetched = await fetchConversation(port, identity, token, shareWaitMs);
    if (fetched.kind === "busy") return "busy";
    return fetched.kind === "found" ? store.put(fetched.conversation) : undefined;
  }

  async #admit(inbox: string, req: Req): Promise<void> {
    const stream = new ReplyStream(this.target(inbox, req));
    if (req.protocol === FISK_PROTOCOLS.requestRead) {
      const conv = await this.#conversation(req.conversation_token!, true);
      return answerRead(stream, req.conversation_token!, conv, this.#cfg.store, req.replay ?? 1);
    }
    const { workers, store, identity } = this.#cfg;
    if (this.#stopping) return this.#refuse(stream, `agent ${JSON.stringify(identity)} is stopping and takes no more tasks`, "draining");
    if (this.#running.has(req.request)) return this.#refuse(stream, `request ${JSON.stringify(req.request)} is already in flight here`, "duplicate_request");
    if (this.#running.size >= workers) return this.#refuse(stream, `this worker is running its maximum of ${workers} prompts`, "capacity");
    this.#running.set(req.request, "admitting");
    try {
      let conv: Conversation | "busy" | undefined;
      if (req.conversation_token === undefined) conv = store.put(newConversation(mintKsuid(this.#cfg.ids.clock, this.#cfg.ids.random)));
      else conv = await this.#conversation(req.conversation_token);
      if (conv === "busy") return this.#refuse(stream, "another turn of this conversation is running", "conversation_busy");
      if (!conv) return this.#refuse(stream, "no conversation is kept under that token", "unknown_conversation");
      if (this.#stopping) return this.#refuse(stream, `agent ${JSON.stringify(identity)} is stopping and takes no more tasks`, "draining");
      await this.#run(stream, req, conv);
    } finally {
      this.#running.delete(req.request);
    }
  }

  async #run(stream: ReplyStream, req: Req, conv: Conversation): Promise<void> {
    const { store, port, identity, validate, stats, clock } = this.#cfg;
    const releaseConversation = store.hold(conv.token);
    const turn = new Turn(this.#cfg, req.request, conv, stream, req.stream !== false);
    this.#running.set(req.request, turn);
    // Held before the ack, so a cancel sent on seeing the ack always lands here.
    const releaseWatches = watchTask({ identity, target: (inbox, answering) => this.target(inbox, answering), subscribe: (s, fn) => port.subscribe(s, fn) as NatsSubscription, stats, clock, ...(validate ? { validate } : {}) }, turn);
    try {
      if (req.budget?.max_tokens) conv.maxTokens = req.budget.max_tokens;
      stream.ack(true, undefined, { conversation_token: conv.token, ...(conv.maxTokens ? { max_tokens: conv.maxTokens } : {}) });
      if (req.protocol === FISK_PROTOCOLS.requestPrompt && req.replay !== undefined && conv.turns.length > 0) replayInto(stream, store, conv, req.replay);
      const end = await this.#turn(turn, req);
      if (req.protocol === FISK_PROTOCOLS.requestPrompt || turn.blocks.length > 0) store.record(conv, turn.blocks, end.toolCalls);
      releaseWatches();
      this.#end(stream, end);
    } finally {
      releaseWatches();
      releaseConversation();
    }
  }

  async #turn(turn: Turn, req: Req): Promise<TurnEnd> {
    const conv = turn.conversation;
    if (req.protocol === FISK_PROTOCOLS.requestPrompt) {
      turn.blocks.push({ event: "prompt", block: { text: req.prompt ?? "" } });
      const script = readScript(req.prompt ?? "", req.tool_hints);
      if (script.kind === "bad") return { kind: "error", code: "rejected", stopReason: "error", error: `the task cannot be run: ${script.reason}`, toolCalls: 0 };
      if (script.kind === "echo") {
        turn.emit("text", { text: script.text, final: true });
        return { kind: "result", text: script.text, toolCalls: 0 };
      }
      conv.pending = undefined;
      return runSteps(turn, script.steps);
    }
    const pending = conv.pending;
    if (req.protocol === FISK_PROTOCOLS.requestResume) {
      if (!pending) return { kind: "error", code: "turn_not_taken", stopReason: "error", error: "nothing in this conversation waits to be resumed", toolCalls: 0 };
      conv.pending = undefined;
      return runSteps(turn, pending.steps, [...pending.outputs]);
    }
    const answer = req.answer!;
    if (pending?.toolUseId === answer.tool_use_id && answer.kind === "approve") {
      conv.pending = undefined;
      return runSteps(turn, pending.steps, [...pending.outputs], { toolUseId: answer.tool_use_id, approval: approvalOf(answer) });
    }
    if (conv.answered.includes(answer.tool_use_id)) return { kind: "error", code: "already_answered", stopReason: "error", error: `${answer.tool_use_id} was answered already`, toolCalls: 0 };
    return { kind: "error", code: "unknown_call", stopReason: "error", error: `nothing in this conversation waits for an answer to ${JSON.stringify(answer.tool_use_id)}`, toolCalls: 0 };
  }

  #end(stream: ReplyStream, end: TurnEnd): void {
    const usage = end.toolCalls > 0 ? { usage: { tool_calls: end.toolCalls } } : {};
    if (end.kind === "result") {
      stream.finish(FISK_PROTOCOLS.result, { stop_reason: "end_turn", ...(end.text ? { text: end.text } : {}), ...usage });
      return;
    }
    const draining = this.#stopping && end.code === "canceled";
    const fields = draining ? { stop_reason: "canceled", error: "the agent stopped serving before the task finished", code: "draining" } : { stop_reason: end.stopReason, error: end.error, code: end.code };
    stream.finish(FISK_PROTOCOLS.error, { ...fields, ...usage });
  }
}
