import {
  answerRequest,
  discoveryRequest,
  encodeFiskBytes,
  promptRequest,
  readRequest,
  resumeRequest,
  toolRequest,
  type FiskMessage,
  type JsonObject,
  type StampContext,
} from "../../../fisk/codec/index.ts";
import { manualClock, ManualScheduler } from "../../../env/index.ts";
import { DEMO_TOOLKIT } from "../../demo-toolkit.ts";
import type { Toolkit } from "../../toolkit/toolkit-types.ts";
import { startFiskServer, type FiskServeOptions, type FiskServer } from "../fisk-server.ts";
import { FINAL_HEADER } from "../reply-stream.ts";
import { MemoryBus, settle } from "./memory-bus.ts";

/** One message read back from an inbox of the memory bus. */
export interface Answer {
  readonly json: Record<string, unknown> | undefined;
  readonly text: string;
  readonly final: boolean;
  readonly headers: Record<string, string[]>;
}

/** A fisk-ai server on a memory bus with manual time, and a caller that speaks to it. */
export class Harness {
  readonly bus = new MemoryBus();
  readonly clock = manualClock();
  readonly scheduler = new ManualScheduler();
  #seed = 1;
  readonly random = (bytes: Uint8Array): Uint8Array => {
    for (let i = 0; i < bytes.length; i++) bytes[i] = (this.#seed = (this.#seed * 1103515245 + 12345) >>> 0) >>> 16;
    return bytes;
  };
  server!: FiskServer;

  async start(options: Partial<FiskServeOptions> & { toolkit?: Toolkit } = {}): Promise<FiskServer> {
    this.server = await startFiskServer({ port: this.bus.port((ms, fn) => this.scheduler.after(ms, fn)), toolkit: DEMO_TOOLKIT, clock: this.clock, scheduler: this.scheduler, random: this.random, ...options });
    return this.server;
  }

  get identity(): string {
    return this.server.identity;
  }

  stamp(extra: Partial<StampContext> = {}): StampContext {
    return { clock: this.clock, random: this.random, sender: { name: "console-1" }, recipient: { name: this.identity }, ...extra };
  }

  /** Publishes raw bytes with a fresh inbox and returns it. */
  send(subject: string, body: Uint8Array | string): string {
    const inbox = this.bus.inbox();
    this.bus.publish(subject, typeof body === "string" ? new TextEncoder().encode(body) : body, { reply: inbox });
    return inbox;
  }

  call(tool: string, input?: JsonObject, extra: Partial<StampContext> = {}): string {
    return this.send(`choria.fisk-ai.tool.${this.identity}`, encodeFiskBytes(toolRequest(tool, input ?? null, this.stamp(extra))));
  }

  /** A `request.*` on the task subject; `fields` are the kind's own (prompt, conversation_token, …). */
  task(kind: "prompt" | "answer" | "resume" | "read", fields: Record<string, unknown>, extra: Partial<StampContext> & { request?: string } = {}): string {
    const builders = { prompt: promptRequest, answer: answerRequest, resume: resumeRequest, read: readRequest } as const;
    const { request, ...ctx } = extra;
    const build = builders[kind] as (f: Record<string, unknown>, c: StampContext, p: { request?: string }) => FiskMessage;
    return this.send(`choria.fisk-ai.task.${this.identity}`, encodeFiskBytes(build(fields, this.stamp(ctx), request ? { request } : {})));
  }

  /** A request on any subject (cancel, elicit), read back as its one reply. */
  ask(subject: string, message: FiskMessage): string {
    return this.send(subject, encodeFiskBytes(message));
  }

  discover(): string {
    return this.send(`choria.fisk-ai.discovery.${this.identity}`, encodeFiskBytes(discoveryRequest(this.stamp())));
  }

  answers(inbox: string): Answer[] {
    return this.bus.to(inbox).map((p) => ({
      json: p.text ? (JSON.parse(p.text) as Record<string, unknown>) : undefined,
      text: p.text,
      final: (p.headers?.[FINAL_HEADER]?.[0] ?? "") !== "",
      headers: p.headers ?? {},
    }));
  }

  /** Moves manual time on, letting the work each step starts run. */
  async advance(ms: number, step = 1000): Promise<void> {
    await settle();
    for (let left = ms; left > 0; left -= step) {
      this.scheduler.advance(Math.min(step, left));
      await settle();
    }
  }
}
