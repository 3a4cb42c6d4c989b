import { FISK_PROTOCOLS, type Identity, type IdContext, type ToolRequest } from "../../fisk/codec/index.ts";
import type { Clock } from "../../env/environment.ts";
import type { Scheduler } from "../../env/scheduler.ts";
import type { NatsMessage, NatsPort } from "../../nats/port.ts";
import type { CommandRunner } from "../run-types.ts";
import type { Semaphore } from "../semaphore.ts";
import type { ExecuteContext } from "../tool-executor.ts";
import type { ToolProgress, ToolRun } from "../tool-run.ts";
import type { ToolDef } from "../toolkit/toolkit-types.ts";
import type { FiskGeneration } from "./fisk-card.ts";
import { intake, toolShape, type FiskValidator } from "./fisk-intake.ts";
import { atCapacity, notAvailable, refusalFields, replyFields, type ToolReplyFields } from "./fisk-reply.ts";
import type { EndpointStats } from "./micro-service.ts";
import { microError, ReplyStream, send, toolReplyBytes, type ReplyTarget } from "./reply-stream.ts";

/** Runs one call of a tool; `executeTool` unless a test instruments it. Never throws. */
export type ToolExecutor = (tool: ToolDef, input: unknown, ctx: ExecuteContext) => Promise<ToolRun>;

export interface ToolEndpointConfig {
  readonly identity: string;
  readonly me: Identity;
  readonly port: NatsPort;
  readonly clock: Clock;
  readonly ids: IdContext;
  readonly scheduler: Scheduler;
  readonly generation: FiskGeneration;
  readonly served: ReadonlyMap<string, ToolDef>;
  readonly semaphore: Semaphore;
  readonly keepaliveMs: number;
  readonly callTimeoutMs: number;
  readonly validate?: FiskValidator;
  readonly execute: ToolExecutor;
  readonly runner?: CommandRunner;
  readonly stats: EndpointStats;
  readonly warn: (message: string) => void;
}

const seconds = (ms: number): string => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);

/**
 * The tool endpoint. Gen 2 answers a reply set: an ack (refusing an unknown tool or a full agent
 * at once, without waiting), running-tool keepalives and the tool's own progress while it runs,
 * and a final `tool.reply`. Gen 1 answers one `tool.reply` and, as v0.0.x did, waits for a free slot.
 */
export class ToolEndpoint {
  readonly #cfg: ToolEndpointConfig;
  /** Calls whose reply is not sent yet; stop() ends them and waits for their replies. */
  readonly #calls = new Set<Promise<void>>();
  readonly #stoppers = new Set<() => void>();
  #stopped = false;

  constructor(cfg: ToolEndpointConfig) {
    this.#cfg = cfg;
  }

  /** Calls answered or waiting for their reply right now. */
  get pending(): number {
    return this.#calls.size;
  }

  handle(msg: NatsMessage): void {
    this.#cfg.stats.time(this.#cfg.clock, () => this.#dispatch(msg));
  }

  /** Stops every running call (each still gets its reply) and waits until all are answered. */
  async stop(): Promise<void> {
    this.#stopped = true;
    for (const stop of [...this.#stoppers]) stop();
    while (this.#calls.size > 0) await Promise.all([...this.#calls]);
  }

  #target(inbox: string, req?: ToolRequest): ReplyTarget {
    const { port, me, ids, warn } = this.#cfg;
    const answering = req ? { request: req.request, conversation: req.conversation, sender: req.sender } : { request: "", conversation: "" };
    return { port, inbox, answering, me, ids, onSendError: warn };
  }

  #dispatch(msg: NatsMessage): void {
    const { stats, generation } = this.#cfg;
    // fisk-ai's first send fails ("no reply subject"): there is nobody to answer.
    if (!msg.reply) return;
    const checked = intake<ToolRequest>(msg.data, FISK_PROTOCOLS.toolRequest, generation, this.#cfg.validate, toolShape);
    if (!checked.ok) {
      stats.error(400, checked.description);
      microError(this.#target(msg.reply), 400, checked.description);
      return;
    }
    const req = checked.message;
    const target = this.#target(msg.reply, req);
    if (this.#stopped) {
      const reason = `agent ${JSON.stringify(this.#cfg.identity)} is stopping and takes no more calls`;
      if (generation === "gen1") send(target, toolReplyBytes(target, 0, refusalFields(reason)));
      else this.#refuse(new ReplyStream(target), reason, "draining");
      return;
    }
    if (generation === "gen1") this.#track(this.#gen1(target, req));
    else this.#gen2(target, req);
  }

  #refuse(stream: ReplyStream, reason: string, code?: string): void {
    stream.ack(false, reason);
    stream.end(refusalFields(reason, code));
  }

  #gen2(target: ReplyTarget, req: ToolRequest): void {
    const stream = new ReplyStream(target);
    const tool = this.#cfg.served.get(req.name);
    if (!tool) return this.#refuse(stream, notAvailable(req.name));
    const release = this.#cfg.semaphore.tryAcquire();
    if (!release) return this.#refuse(stream, atCapacity(req.name, this.#cfg.identity, this.#cfg.semaphore.limit), "capacity");
    stream.ack(true);
    let cancelKeepalive = (): void => undefined;
    const tick = (): void => {
      if (stream.keepalive()) cancelKeepalive = this.#cfg.scheduler.after(this.#cfg.keepaliveMs, tick);
    };
    cancelKeepalive = this.#cfg.scheduler.after(this.#cfg.keepaliveMs, tick);
    this.#track(
      this.#run(tool, req.input, release, (p) => void stream.progress(p)).then((fields) => {
        cancelKeepalive();
        stream.end(fields);
      }),
    );
  }

  async #gen1(target: ReplyTarget, req: ToolRequest): Promise<void> {
    const reply = (fields: ToolReplyFields): void => void send(target, toolReplyBytes(target, 0, fields));
    const tool = this.#cfg.served.get(req.name);
    if (!tool) return reply(refusalFields(notAvailable(req.name)));
    // v0.0.x waits for a slot (back-pressure, no refusal); the wait is bounded by the call timeout.
    const waiting = new AbortController();
    const cancelWait = this.#cfg.scheduler.after(this.#cfg.callTimeoutMs, () => waiting.abort());
    const unhook = this.#onStop(() => waiting.abort());
    let release: () => void;
    try {
      release = await this.#cfg.semaphore.acquire(waiting.signal);
    } catch {
      const why = this.#stopped ? "the agent stopped serving" : `no slot came free within ${seconds(this.#cfg.callTimeoutMs)}`;
      return reply(refusalFields(`tool ${JSON.stringify(req.name)} on agent ${JSON.stringify(this.#cfg.identity)} did not run: ${why}`));
    } finally {
      cancelWait();
      unhook();
    }
    reply(await this.#run(tool, req.input, release));
  }

  #track(call: Promise<void>): void {
    const settled = call.catch((err: unknown) => this.#cfg.warn(`a tool call failed to answer: ${(err as Error).message}`)).finally(() => this.#calls.delete(settled));
    this.#calls.add(settled);
  }

  #onStop(fn: () => void): () => void {
    this.#stoppers.add(fn);
    return () => this.#stoppers.delete(fn);
  }

  /**
   * Runs the tool under the call timeout. The reply is ready when the tool ends, the timeout
   * passes or the agent stops, whichever is first; the slot is freed only when the tool has
   * really ended, so the concurrency bound holds even for a tool slow to honour the abort.
   */
  #run(tool: ToolDef, input: unknown, release: () => void, onProgress?: (p: ToolProgress) => void): Promise<ToolReplyFields> {
    const { callTimeoutMs, scheduler, runner } = this.#cfg;
    const controller = new AbortController();
    const ctx: ExecuteContext = {
      scheduler,
      signal: controller.signal,
      ...(runner ? { runner } : {}),
      ...(onProgress ? { onProgress } : {}),
      ...(tool.impl.kind === "command" ? { timeoutMs: Math.min(tool.impl.timeoutMs, callTimeoutMs) } : {}),
    };
    return new Promise<ToolReplyFields>((resolve) => {
      let settled = false;
      const finish = (fields: ToolReplyFields): void => {
        if (settled) return;
        settled = true;
        cancelTimer();
        unhook();
        resolve(fields);
      };
      const cut = (reason: "timeout" | "cancelled", message: string): void => {
        finish(replyFields({ kind: "harness-error", reason, message }));
        controller.abort();
      };
      const cancelTimer = scheduler.after(callTimeoutMs, () => cut("timeout", `tool ${JSON.stringify(tool.name)} did not finish within ${seconds(callTimeoutMs)} and was stopped`));
      const unhook = this.#onStop(() => cut("cancelled", `the agent stopped serving before tool ${JSON.stringify(tool.name)} finished`));
      const execution = (async () => this.#cfg.execute(tool, input ?? {}, ctx))();
      void execution
        .then(
          (run) => finish(replyFields(run)),
          (err: unknown) => finish(replyFields({ kind: "harness-error", reason: "failed", message: `the tool failed: ${(err as Error).message}` })),
        )
        .finally(release);
    });
  }
}
