import type { Clock } from "../../env/environment.ts";
import type { Scheduler } from "../../env/scheduler.ts";
import { isJsonObject } from "../../json/index.ts";
import { EVENT_PREFIX, MAX_BODY_BYTES, NAMESPACE } from "../../packs/fisk-ai/protocol.ts";
import type { NatsHeaders, NatsMessage, NatsPort } from "../../nats/port.ts";

/** The header on the last message of a Gen 2 reply set. */
export const FINAL_HEADER = "Fisk-AI-Stream-Final";
/** Headers of a micro-service refusal, sent with an empty body before any reply set. */
export const SERVICE_ERROR_CODE = "Nats-Service-Error-Code";
export const SERVICE_ERROR = "Nats-Service-Error";
/** A caller waits at least this long between messages: three keepalive intervals. */
export const MIN_IDLE_MS = 30_000;
export const DEFAULT_IDLE_MS = 120_000;

const ACK = `${NAMESPACE}.ack`;

/** What one received message meant to the reader. */
export type EntryDisposition = "ack" | "event" | "terminal" | "foreign" | "refusal" | "no-responders" | "invalid";

/** One message of the set, as it arrived, with what the reader made of it. */
export interface ReplySetEntry {
  /** Milliseconds after the request was sent. */
  readonly at: number;
  readonly message: NatsMessage;
  readonly disposition: EntryDisposition;
  readonly protocol?: string;
  readonly sequence?: number;
  readonly value?: Readonly<Record<string, unknown>>;
  /** The message carried the final header. */
  readonly final: boolean;
  /** Why a message was dropped or refused. */
  readonly note?: string;
}

/** How the read ended. */
export type ReplySetEnd =
  | { readonly kind: "terminal"; readonly entry: ReplySetEntry }
  | { readonly kind: "final-without-terminal"; readonly entry: ReplySetEntry }
  | { readonly kind: "refused"; readonly code: string; readonly description: string }
  /** 503 on the inbox; or, with `via`, the agent's micro PING got no responders while the set was silent. */
  | { readonly kind: "no-responders"; readonly via?: LivenessEvidence }
  | { readonly kind: "idle-timeout"; readonly idleMs: number }
  /** The instance that took the request no longer answers its micro PING: it stopped or died mid-call. */
  | { readonly kind: "instance-gone"; readonly instance: string; readonly via: LivenessEvidence }
  /** The connection to NATS dropped mid-read: whatever was still coming is lost to this read, and nothing was sent again. */
  | { readonly kind: "disconnected"; readonly server?: string }
  | { readonly kind: "protocol-error"; readonly message: string }
  | { readonly kind: "cancelled" }
  | { readonly kind: "send-failed"; readonly message: string };

export interface ReplySetResult {
  readonly entries: readonly ReplySetEntry[];
  readonly end: ReplySetEnd;
  /** Sequence numbers skipped between accepted messages: counted, not fatal. */
  readonly gaps: number;
  readonly elapsedMs: number;
}

/** How a silent target was found to be gone: the subject asked and how long the set had been silent. */
export interface LivenessEvidence {
  readonly subject: string;
  readonly silentMs: number;
}

/** What a liveness probe learnt: gone (with how), alive, or nothing either way (a timeout). */
export type LivenessAnswer = { readonly gone: true; readonly via: LivenessEvidence } | { readonly gone: false };

export interface ReplySetRequest {
  readonly subject: string;
  readonly body: Uint8Array;
  readonly headers?: NatsHeaders;
  /** A fresh inbox, `_INBOX.<token>`, subscribed before the request is published. */
  readonly inbox: string;
  /** The request tag every message of this set echoes; others are dropped. */
  readonly request: string;
  /** Protocol ids that end the set (`tool.reply`; `result` and `error`). */
  readonly terminals: ReadonlySet<string>;
  /** Longest wait for the next message. */
  readonly idleMs: number;
  readonly signal?: AbortSignal;
  /** Called for each message as it arrives, for a live timeline. */
  readonly onEntry?: (entry: ReplySetEntry) => void;
  /**
   * Asked when the idle time runs out: true keeps reading for another `idleMs`. A task holding a
   * question sends nothing on its reply set; the acks to the caller's waitings show it is alive.
   */
  readonly holdIdle?: () => boolean;
  /**
   * Asked once when nothing of this request has arrived `afterMs` after sending. A subscriber that
   * never answers (a tap on the subject, a stale listener) keeps NATS from saying "no responders"
   * on the subject itself; the agent's micro service can still be asked whether it exists.
   */
  readonly liveness?: {
    readonly afterMs: number;
    readonly probe: (silentMs: number) => Promise<LivenessAnswer>;
    /**
     * Once a message names the instance answering (`sender.instance`), a silence this long asks
     * whether that instance still runs; asked again after each such silence.
     */
    readonly instance?: { readonly everyMs: number; readonly probe: (instance: string, silentMs: number) => Promise<LivenessAnswer> };
  };
}

export interface ReplySetDeps {
  readonly port: NatsPort;
  readonly clock: Clock;
  readonly scheduler: Scheduler;
}

const decoder = new TextDecoder("utf-8", { fatal: true });

/** A header's first value, its name matched without regard to case. */
export function headerValue(message: NatsMessage, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [key, values] of Object.entries(message.headers ?? {})) if (key.toLowerCase() === lower) return values[0];
  return undefined;
}

function parse(message: NatsMessage): { value?: Record<string, unknown>; problem?: string } {
  if (message.data.length > MAX_BODY_BYTES) return { problem: `the message is ${message.data.length} bytes, over the ${MAX_BODY_BYTES}-byte cap` };
  try {
    const value: unknown = JSON.parse(decoder.decode(message.data));
    if (!isJsonObject(value)) return { problem: "the message is not a JSON object" };
    if (typeof value.protocol !== "string") return { problem: "the message has no protocol id" };
    return { value };
  } catch {
    return { problem: "the message is not JSON in UTF-8" };
  }
}

/**
 * Reads a reply set the way fisk-ai's own client does: subscribe a fresh inbox, publish the
 * request with that reply subject, then read until a terminal message or the final header,
 * accepting at most one ack and any number of events, dropping messages of another request, and
 * giving up when the peer is silent for `idleMs`. Works against Gen 1 peers too, which answer with
 * the terminal message alone.
 */
export function readReplySet(deps: ReplySetDeps, req: ReplySetRequest): Promise<ReplySetResult> {
  const { port, clock, scheduler } = deps;
  const started = clock.now();
  const entries: ReplySetEntry[] = [];
  let gaps = 0;
  let lastSequence: number | undefined;
  let acks = 0;
  return new Promise<ReplySetResult>((resolve) => {
    let done = false;
    let cancelTimer: () => void = () => undefined;
    let cancelProbe: () => void = () => undefined;
    let cancelInstanceProbe: () => void = () => undefined;
    let heard = false;
    let lastHeardAt = started;
    /** The instance that answers this request, once a message named it. */
    let answerer: string | undefined;
    const sub = port.subscribe(req.inbox, (message) => receive(message));
    // A dropped connection loses what was in flight; the read says so at once instead of waiting out its idle limit.
    const offStatus = port.onStatus((e) => {
      if (e.type === "disconnect") finish({ kind: "disconnected", ...(e.server ? { server: e.server } : {}) });
    });
    const finish = (end: ReplySetEnd): void => {
      if (done) return;
      done = true;
      cancelTimer();
      cancelProbe();
      cancelInstanceProbe();
      offStatus();
      sub.unsubscribe();
      req.signal?.removeEventListener("abort", onAbort);
      resolve({ entries, end, gaps, elapsedMs: clock.now() - started });
    };
    const arm = (): void => {
      cancelTimer();
      cancelTimer = scheduler.after(req.idleMs, () => (req.holdIdle?.() ? arm() : finish({ kind: "idle-timeout", idleMs: req.idleMs })));
    };
    const onAbort = (): void => finish({ kind: "cancelled" });
    const keep = (entry: ReplySetEntry): void => {
      entries.push(entry);
      req.onEntry?.(entry);
    };

    function armInstanceProbe(): void {
      const watch = req.liveness?.instance;
      if (!watch || answerer === undefined) return;
      const instance = answerer;
      cancelInstanceProbe();
      cancelInstanceProbe = scheduler.after(watch.everyMs, () => {
        if (done) return;
        const silentMs = clock.now() - lastHeardAt;
        watch.probe(instance, silentMs).then(
          (answer) => {
            if (done) return;
            if (answer.gone) finish({ kind: "instance-gone", instance, via: answer.via });
            else armInstanceProbe();
          },
          () => armInstanceProbe(),
        );
      });
    }

    function receive(message: NatsMessage): void {
      if (done) return;
      const at = clock.now() - started;
      const final = headerValue(message, FINAL_HEADER) !== undefined && headerValue(message, FINAL_HEADER) !== "";
      if (message.status?.code === 503) {
        keep({ at, message, disposition: "no-responders", final, note: "no responders: nothing serves this subject" });
        return finish({ kind: "no-responders" });
      }
      const code = headerValue(message, SERVICE_ERROR_CODE);
      if (code !== undefined) {
        const description = headerValue(message, SERVICE_ERROR) ?? "";
        keep({ at, message, disposition: "refusal", final, note: `${code}: ${description}` });
        return finish({ kind: "refused", code, description });
      }
      const { value, problem } = parse(message);
      if (!value) {
        keep({ at, message, disposition: "invalid", final, ...(problem ? { note: problem } : {}) });
        return finish({ kind: "protocol-error", message: problem ?? "unreadable message" });
      }
      const protocol = value.protocol as string;
      const sequence = typeof value.sequence === "number" ? value.sequence : undefined;
      if (value.request !== req.request) {
        const note = typeof value.request === "string" ? `belongs to request ${JSON.stringify(value.request)}, not this one` : "carries no request tag";
        keep({ at, message, disposition: "foreign", protocol, value, final: false, note });
        return;
      }
      heard = true;
      lastHeardAt = clock.now();
      const sender = value.sender as { instance?: unknown } | undefined;
      if (typeof sender?.instance === "string" && sender.instance !== "") answerer = sender.instance;
      arm();
      armInstanceProbe();
      if (sequence !== undefined && lastSequence !== undefined && sequence > lastSequence + 1) gaps += sequence - lastSequence - 1;
      if (sequence !== undefined) lastSequence = sequence;
      const base = { at, message, protocol, value, final, ...(sequence !== undefined ? { sequence } : {}) };
      if (req.terminals.has(protocol)) {
        const entry: ReplySetEntry = { ...base, disposition: "terminal" };
        keep(entry);
        return finish({ kind: "terminal", entry });
      }
      if (protocol === ACK && ++acks === 1) keep({ ...base, disposition: "ack" });
      else if (protocol.startsWith(EVENT_PREFIX) || protocol.startsWith(`${NAMESPACE}.elicit.`)) keep({ ...base, disposition: "event" });
      else {
        const why = protocol === ACK ? "a second ack: a reply set has at most one" : `${protocol} does not belong in this reply set`;
        keep({ ...base, disposition: "invalid", note: why });
        return finish({ kind: "protocol-error", message: why });
      }
      if (final) finish({ kind: "final-without-terminal", entry: entries[entries.length - 1]! });
    }

    if (req.signal?.aborted) return finish({ kind: "cancelled" });
    req.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      port.publish(req.subject, req.body, { reply: req.inbox, ...(req.headers ? { headers: req.headers } : {}) });
    } catch (err) {
      return finish({ kind: "send-failed", message: (err as Error).message });
    }
    arm();
    const liveness = req.liveness;
    if (liveness) {
      cancelProbe = scheduler.after(liveness.afterMs, () => {
        if (done || heard) return;
        liveness.probe(liveness.afterMs).then(
          (answer) => {
            if (answer.gone && !done && !heard) finish({ kind: "no-responders", via: answer.via });
          },
          () => undefined,
        );
      });
    }
    port.flush().catch((err: unknown) => finish({ kind: "send-failed", message: (err as Error).message }));
  });
}
