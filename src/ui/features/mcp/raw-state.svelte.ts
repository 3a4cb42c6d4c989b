import { isJsonObject } from "../../../core/json/index.ts";
import { type Envelope, withEnvelope } from "../../../core/mcp/index.ts";
import type { WireEntry, WireLog } from "../../../core/wire/index.ts";
import type { McpTransportHandle } from "./mcp-state.svelte.ts";
import { CheckQueue, type Defer, type FrameChecker } from "./raw-check-queue.ts";
import { checkJob, type FrameVerdict } from "./raw-frame-check.ts";
import { answers, ConnectionFrames, expectedAnswer } from "./raw-follow.ts";
import { RawHistory } from "./raw-history.ts";
import { type FrameCounts, mergeVerdicts, NO_COUNTS, NO_VERDICTS, tally } from "./raw-frames.ts";

/** Frames kept for the list; Traffic keeps them all. */
export const MAX_FRAMES = 200;
export const DEFAULT_RAW_TIMEOUT_MS = 60_000;

export interface RawTimers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export interface RawStateOptions {
  /** The validation worker; without it frames are listed unchecked. */
  readonly checker?: FrameChecker;
  /** Schedules a batched update of the list and verdicts (default: 50 ms later). */
  readonly defer?: Defer;
  readonly timers?: RawTimers;
}

/** What became of the last raw message's request for an answer. */
export type RawAnswer =
  | { readonly state: "waiting"; readonly id: string; readonly key: string; readonly timeoutMs: number }
  | { readonly state: "answered"; readonly id: string; readonly key: string; readonly rttMs: number | undefined }
  | { readonly state: "no-answer"; readonly id: string; readonly key: string; readonly timeoutMs: number }
  | { readonly state: "closed"; readonly id: string; readonly key: string }
  | { readonly state: "not-expected" };

const systemTimers: RawTimers = { set: (run, ms) => setTimeout(run, ms), clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>) };

/**
 * Raw JSON-RPC mode: any text sent as one message, and every frame of the connection listed with
 * the worker's verdict against the negotiated version and, for responses, the latency.
 */
export class RawJsonRpcState {
  text = $state('{"jsonrpc":"2.0","id":99,"method":"nope"}');
  sending = $state(false);
  error = $state<string | null>(null);
  /** The connection's frames, oldest first: all of them, or those since the last raw send. */
  frames = $state.raw<readonly WireEntry[]>([]);
  verdicts = $state.raw<ReadonlyMap<number, FrameVerdict>>(NO_VERDICTS);
  counts = $state.raw<FrameCounts>(NO_COUNTS);
  answer = $state.raw<RawAnswer | null>(null);
  /** The negotiated version frames are checked against, null when none is known. */
  version = $state<string | null>(null);
  /** False once a raw message is sent: the list shows what followed it. */
  wholeConnection = $state(true);
  readonly history = new RawHistory();

  readonly #log: WireLog;
  readonly #timers: RawTimers;
  readonly #defer: Defer;
  readonly #queue: CheckQueue | undefined;
  #connection: ConnectionFrames | undefined;
  #window: WireEntry[] = [];
  #mark = 0;
  #timeoutMs = DEFAULT_RAW_TIMEOUT_MS;
  #timer: unknown;
  #unsubscribe: (() => void) | undefined;
  /** Verdicts not yet shown, by sequence number. */
  #incoming: [number, FrameVerdict][] = [];
  #refreshing = false;

  constructor(log: WireLog, options: RawStateOptions = {}) {
    this.#log = log;
    this.#timers = options.timers ?? systemTimers;
    this.#defer = options.defer ?? ((run) => void setTimeout(run, 50));
    this.#queue = options.checker && new CheckQueue(options.checker, (v) => this.#arrived(v), { defer: this.#defer });
  }

  /**
   * Follows the open connection: its frames from initialize on, checked against `version`.
   * Without a transport the connection is over: nothing more is followed and a wait ends.
   */
  follow(transport: McpTransportHandle | undefined, version: string | undefined, timeoutMs = DEFAULT_RAW_TIMEOUT_MS): void {
    this.#timeoutMs = timeoutMs;
    if (!transport) {
      this.#stop();
      return;
    }
    const v = version ?? null;
    if (this.#connection?.target === transport.target && this.version === v && this.#unsubscribe) return;
    this.#stop();
    this.#queue?.clear();
    this.version = v;
    this.#connection = new ConnectionFrames(this.#log, transport.target);
    this.#mark = this.#connection.start;
    this.#window = [];
    this.#incoming = [];
    this.verdicts = NO_VERDICTS;
    this.counts = NO_COUNTS;
    this.answer = null;
    this.error = null;
    this.wholeConnection = true;
    this.#unsubscribe = this.#log.on("change", () => this.#ingest());
    this.#ingest();
  }

  async send(transport: McpTransportHandle | undefined): Promise<void> {
    if (!transport) {
      this.error = "Connect to a server first";
      return;
    }
    if (this.#connection?.target !== transport.target || !this.#unsubscribe) this.follow(transport, this.version ?? undefined, this.#timeoutMs);
    const text = this.text;
    this.history.push(text);
    this.error = null;
    this.#ingest();
    this.#mark = this.#log.lastSeq;
    this.wholeConnection = false;
    this.#wait(expectedAnswer(text));
    this.sending = true;
    try {
      await transport.sendRaw(text);
    } catch (error) {
      this.error = `Not sent: ${(error as Error).message}`;
      this.#clearTimer();
      this.answer = null;
    } finally {
      this.sending = false;
      this.#ingest();
      this.#refresh();
    }
  }

  /** Shows the whole connection again, or only what followed the last raw send. */
  showWholeConnection(whole: boolean): void {
    this.wholeConnection = whole;
    this.#refresh();
  }

  /**
   * Puts the 2026-07-28 `_meta` envelope into the request typed (keys already in its `_meta` are
   * kept), so it can go to a modern server; says why when the text is not a request.
   */
  addEnvelope(envelope: Envelope): void {
    let value: unknown;
    try {
      value = JSON.parse(this.text);
    } catch (error) {
      this.error = `No envelope added: the text is not JSON (${(error as Error).message})`;
      return;
    }
    if (!isJsonObject(value) || typeof value.method !== "string") {
      this.error = "No envelope added: the text is not one JSON-RPC request or notification (an object with a method)";
      return;
    }
    const params = value.params === undefined || isJsonObject(value.params) ? value.params : undefined;
    if (value.params !== undefined && params === undefined) {
      this.error = "No envelope added: params is not an object";
      return;
    }
    this.error = null;
    this.text = JSON.stringify({ ...value, params: withEnvelope(params, envelope) });
  }

  /** Replaces the text with an older or newer sent message, like a shell. */
  recall(which: "older" | "newer"): boolean {
    const text = which === "older" ? this.history.older(this.text) : this.history.newer();
    if (text === undefined) return false;
    this.text = text;
    return true;
  }

  /** Frames waiting for the worker. */
  get checking(): number {
    return this.#queue?.pending ?? 0;
  }

  dispose(): void {
    this.#stop();
    this.#queue?.clear();
  }

  #stop(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    const answer = this.answer;
    if (answer?.state === "waiting") this.answer = { state: "closed", id: answer.id, key: answer.key };
    this.#clearTimer();
  }

  #wait(expected: { readonly id: string; readonly key: string } | undefined): void {
    this.#clearTimer();
    if (!expected) {
      this.answer = { state: "not-expected" };
      return;
    }
    const timeoutMs = this.#timeoutMs;
    this.answer = { state: "waiting", ...expected, timeoutMs };
    this.#timer = this.#timers.set(() => {
      this.#timer = undefined;
      if (this.answer?.state === "waiting") this.answer = { state: "no-answer", ...expected, timeoutMs };
    }, timeoutMs);
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) this.#timers.clear(this.#timer);
    this.#timer = undefined;
  }

  #ingest(): void {
    const connection = this.#connection;
    if (!connection) return;
    const fresh = connection.take();
    if (fresh.length === 0) return;
    for (const { entry, answering } of fresh) {
      this.#window.push(entry);
      const answer = this.answer;
      if ((answer?.state === "waiting" || answer?.state === "no-answer") && answers(entry, answer.key)) {
        this.#clearTimer();
        this.answer = { state: "answered", id: answer.id, key: answer.key, rttMs: entry.correlationId === answer.key ? entry.rttMs : undefined };
      }
      this.#check(entry, answering);
    }
    if (this.#window.length > MAX_FRAMES * 2) this.#window = this.#window.slice(-MAX_FRAMES);
    this.#schedule();
  }

  #check(entry: WireEntry, answering: string | undefined): void {
    const queue = this.#queue;
    if (!queue || this.version === null) return;
    // A full queue is checked first: under a flood, a frame that will not be validated costs nothing more.
    const job = queue.full ? undefined : checkJob(entry, this.version, answering);
    if (job && !("seq" in job)) this.#incoming.push([entry.seq, job]);
    else if (!job || !queue.add(job)) this.#incoming.push([entry.seq, { status: "not-checked", reason: "Not validated: frames came faster than they could be checked." }]);
  }

  #arrived(verdicts: ReadonlyMap<number, FrameVerdict>): void {
    this.#incoming.push(...verdicts);
    this.#schedule();
  }

  #schedule(): void {
    if (this.#refreshing) return;
    this.#refreshing = true;
    this.#defer(() => {
      this.#refreshing = false;
      this.#refresh();
    });
  }

  #refresh(): void {
    const keep = this.#window.slice(-MAX_FRAMES);
    this.#window = keep;
    const since = this.wholeConnection ? (this.#connection?.start ?? 0) : this.#mark;
    const first = keep.findIndex((e) => e.seq > since);
    this.frames = first < 0 ? [] : keep.slice(first);
    if (this.#incoming.length === 0) return;
    const incoming = this.#incoming;
    this.#incoming = [];
    this.counts = tally(this.counts, incoming);
    this.verdicts = mergeVerdicts(this.verdicts, incoming, keep[0]?.seq ?? Infinity);
  }
}
