import type { Clock } from "../env/environment.ts";
import { SnapshotStore } from "../events/typed-event-target.ts";
import { decodeFrame } from "./decode.ts";
import type { WireEntry, WireFrameInput } from "./wire-entry.ts";

export const DEFAULT_WIRE_CAPACITY = 100_000;
/** Requests remembered for pairing with their answers; the oldest unanswered are forgotten first. */
const MAX_ASKED = 10_000;

export interface WireLogSnapshot {
  /**
   * Oldest first; a fresh array per snapshot, so adapters can compare by identity. Built on first
   * read (copying a full ring per burst of frames would dominate under load), so it holds the
   * entries as of that read.
   */
  readonly entries: readonly WireEntry[];
  /** How many entries the log holds; reading it never builds the array. */
  readonly size: number;
  readonly capacity: number;
  /** Frames pushed out of the ring since the log was created or cleared. */
  readonly dropped: number;
  /** Total frames ever recorded (including dropped ones). */
  readonly total: number;
  /** The distinct transport statuses among the entries, ascending. */
  readonly statuses: readonly number[];
}

/**
 * A bounded ring of wire frames. Recording is O(1); a snapshot is published at most once per
 * microtask, and its entries array is only built when someone reads it.
 */
export class WireLog extends SnapshotStore<WireLogSnapshot> {
  readonly #clock: Clock;
  #ring: (WireEntry | undefined)[];
  #start = 0;
  #count = 0;
  #dropped = 0;
  #seq = 0;
  #pending = false;
  // Entries per status, kept as frames enter and leave the ring so listing them needs no rescan.
  readonly #statusCounts = new Map<number, number>();
  // Method of each recent request by channel and correlation id, so its answer can name it.
  readonly #askedMethod = new Map<string, string>();

  readonly #redact: ((frame: WireFrameInput) => WireFrameInput) | undefined;

  /**
   * `redact` sees every frame before it is stored and may replace secrets a protocol forbids
   * logging (fisk-ai's conversation_token); everything else is kept verbatim.
   */
  constructor(clock: Clock, capacity = DEFAULT_WIRE_CAPACITY, options: { readonly redact?: (frame: WireFrameInput) => WireFrameInput } = {}) {
    super({ entries: [], size: 0, capacity: checkCapacity(capacity), dropped: 0, total: 0, statuses: [] });
    this.#clock = clock;
    this.#redact = options.redact;
    this.#ring = new Array<WireEntry | undefined>(checkCapacity(capacity));
  }

  get capacity(): number {
    return this.#ring.length;
  }

  /** Frames pushed out of the ring so far, exact (the snapshot may lag one microtask). */
  get dropped(): number {
    return this.#dropped;
  }

  /** Entries currently held, exact and O(1) (the snapshot may lag one microtask). */
  get size(): number {
    return this.#count;
  }

  /** Record one frame verbatim (secrets aside, see the constructor) and return the stored entry. */
  record(input: WireFrameInput): WireEntry {
    const frame = this.#redact ? this.#redact(input) : input;
    const entry = this.#paired({
      ...frame,
      seq: ++this.#seq,
      ts: this.#clock.now(),
      wall: this.#clock.wallNow(),
      size: frame.bytes.byteLength,
      decoded: decodeFrame(frame.bytes),
    });
    this.#push(entry);
    return entry;
  }

  /** Add entries that were recorded elsewhere (an imported file), keeping their fields. */
  restore(entries: Iterable<WireEntry>): void {
    for (const e of entries) {
      this.#seq = Math.max(this.#seq, e.seq);
      this.#push(this.#paired(e));
    }
  }

  /** A request's method is remembered; an answer without one of its own is given it. */
  #paired(entry: WireEntry): WireEntry {
    if (entry.correlationId === undefined) return entry;
    const key = `${entry.channel}\u0000${entry.correlationId}`;
    const own = entry.decoded.method ?? entry.decoded.protocolId;
    if (own !== undefined) {
      // A JSON-RPC method always opens an exchange (ids are reused across sessions); a protocol id
      // only when it is the first of its exchange, so a reply set keeps its request's name.
      if (entry.decoded.method === undefined && this.#askedMethod.has(key)) return entry;
      this.#askedMethod.delete(key);
      if (this.#askedMethod.size >= MAX_ASKED) this.#askedMethod.delete(this.#askedMethod.keys().next().value!);
      this.#askedMethod.set(key, own);
      return entry;
    }
    const asked = this.#askedMethod.get(key);
    if (asked === undefined || entry.decoded.requestMethod === asked) return entry;
    return { ...entry, decoded: { ...entry.decoded, requestMethod: asked } };
  }

  clear(): void {
    this.#ring = new Array<WireEntry | undefined>(this.#ring.length);
    this.#start = 0;
    this.#count = 0;
    this.#dropped = 0;
    this.#statusCounts.clear();
    this.#askedMethod.clear();
    this.#publish();
  }

  /** Change capacity, keeping the newest entries that fit. */
  resize(capacity: number): void {
    const keep = this.#ordered();
    const cap = checkCapacity(capacity);
    const overflow = Math.max(0, keep.length - cap);
    this.#ring = new Array<WireEntry | undefined>(cap);
    this.#start = 0;
    this.#count = 0;
    this.#dropped += overflow;
    this.#statusCounts.clear();
    for (const e of keep.slice(overflow)) this.#pushRaw(e);
    this.#publish();
  }

  #push(entry: WireEntry): void {
    this.#pushRaw(entry);
    this.#schedule();
  }

  #pushRaw(entry: WireEntry): void {
    const cap = this.#ring.length;
    if (this.#count < cap) {
      this.#ring[(this.#start + this.#count) % cap] = entry;
      this.#count++;
    } else {
      this.#tally(this.#ring[this.#start], -1);
      this.#ring[this.#start] = entry;
      this.#start = (this.#start + 1) % cap;
      this.#dropped++;
    }
    this.#tally(entry, 1);
  }

  #tally(entry: WireEntry | undefined, delta: 1 | -1): void {
    const status = entry?.status;
    if (status === undefined) return;
    const n = (this.#statusCounts.get(status) ?? 0) + delta;
    if (n > 0) this.#statusCounts.set(status, n);
    else this.#statusCounts.delete(status);
  }

  #ordered(): WireEntry[] {
    const out: WireEntry[] = new Array<WireEntry>(this.#count);
    const cap = this.#ring.length;
    for (let i = 0; i < this.#count; i++) out[i] = this.#ring[(this.#start + i) % cap] as WireEntry;
    return out;
  }

  #schedule(): void {
    if (this.#pending) return;
    this.#pending = true;
    queueMicrotask(() => {
      this.#pending = false;
      this.#publish();
    });
  }

  #publish(): void {
    let built: readonly WireEntry[] | undefined;
    const ordered = () => (built ??= this.#ordered());
    this.set({
      get entries() {
        return ordered();
      },
      size: this.#count,
      capacity: this.#ring.length,
      dropped: this.#dropped,
      total: this.#count + this.#dropped,
      statuses: [...this.#statusCounts.keys()].sort((a, b) => a - b),
    });
  }

  /** Current entries, synchronously (the snapshot may lag by one microtask). */
  entries(): WireEntry[] {
    return this.#ordered();
  }

  /**
   * The entries recorded after sequence number `seq`, oldest first, found by walking back from the
   * newest: following the log costs the new frames only, not a copy of the whole ring.
   */
  entriesAfter(seq: number): WireEntry[] {
    const cap = this.#ring.length;
    let n = 0;
    while (n < this.#count && (this.#ring[(this.#start + this.#count - 1 - n) % cap] as WireEntry).seq > seq) n++;
    const out = new Array<WireEntry>(n);
    for (let i = 0; i < n; i++) out[i] = this.#ring[(this.#start + this.#count - n + i) % cap] as WireEntry;
    return out;
  }

  /** The sequence number of the newest entry, 0 when empty. */
  get lastSeq(): number {
    return this.#count === 0 ? 0 : (this.#ring[(this.#start + this.#count - 1) % this.#ring.length] as WireEntry).seq;
  }
}

function checkCapacity(capacity: number): number {
  if (!Number.isInteger(capacity) || capacity < 1 || capacity > 10_000_000) {
    throw new RangeError(`wire log capacity must be an integer from 1 to 10,000,000, got ${capacity}`);
  }
  return capacity;
}
