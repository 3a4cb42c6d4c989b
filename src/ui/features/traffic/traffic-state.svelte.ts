import type { Clock } from "../../../core/env/index.ts";
import {
  filterWireEntries,
  type WireChannel,
  type WireEntry,
  type WireLog,
  type WireLogSnapshot,
  type WireStatusFilter,
} from "../../../core/wire/index.ts";
import { allChannels, toggled } from "./filter-options.ts";
import { downloadLog, importIntoLog, type ImportReport } from "./traffic-io.ts";
import { validateFrames } from "./traffic-validate.ts";

/** Quiet time after the last keystroke before a text filter is applied. */
const TYPING_DEBOUNCE_MS = 150;
/** Live traffic refilters at most this often, however fast frames arrive. */
const LIVE_THROTTLE_MS = 100;

/**
 * The Traffic workbench's view state: filter inputs, the selected entry, and the filtered list
 * derived in one pass over the log's snapshot.
 */
export class TrafficState {
  readonly log: WireLog;
  readonly #clock: Clock;
  #snapshot: WireLogSnapshot = $state.raw({ entries: [], size: 0, capacity: 1, dropped: 0, total: 0, statuses: [] });
  #appliedAt = Number.NEGATIVE_INFINITY;
  #liveTimer: ReturnType<typeof setTimeout> | undefined;
  #typingTimer: ReturnType<typeof setTimeout> | undefined;

  channels: ReadonlySet<WireChannel> = $state.raw(allChannels());
  status: WireStatusFilter = $state("any");
  /** What is typed; applied to the filter after a short pause. */
  methodInput = $state("");
  searchInput = $state("");
  #method = $state("");
  #search = $state("");
  selected: WireEntry | null = $state.raw(null);
  report: ImportReport | null = $state.raw(null);
  importing = $state(false);

  readonly filtered: WireEntry[] = $derived.by(() =>
    filterWireEntries(this.#snapshot.entries, {
      channels: this.channels,
      status: this.status,
      method: this.#method,
      text: this.#search,
    }),
  );
  readonly selectedIndex = $derived(this.selected ? this.filtered.indexOf(this.selected) : -1);
  /** Monotonic time of the oldest entry, the zero of the Time column. */
  readonly origin = $derived(this.#snapshot.entries[0]?.ts ?? 0);
  /** Distinct statuses present, for the status select (the log keeps them as frames come and go). */
  readonly statuses: readonly number[] = $derived(this.#snapshot.statuses);

  constructor(log: WireLog, clock: Clock) {
    this.log = log;
    this.#clock = clock;
    this.#snapshot = log.snapshot;
  }

  get snapshot(): WireLogSnapshot {
    return this.#snapshot;
  }

  /** Follow the log; returns the function that stops following. */
  connect(): () => void {
    this.#snapshot = this.log.snapshot;
    const off = this.log.on("change", () => this.#onChange());
    return () => {
      off();
      clearTimeout(this.#liveTimer);
      clearTimeout(this.#typingTimer);
    };
  }

  #onChange(): void {
    if (this.#liveTimer !== undefined) return;
    const wait = this.#appliedAt + LIVE_THROTTLE_MS - this.#clock.now();
    if (wait <= 0) return this.#applySnapshot();
    this.#liveTimer = setTimeout(() => this.#applySnapshot(), wait);
  }

  #applySnapshot(): void {
    this.#liveTimer = undefined;
    this.#appliedAt = this.#clock.now();
    this.#snapshot = this.log.snapshot;
  }

  toggleChannel(channel: WireChannel): void {
    this.channels = toggled(this.channels, channel);
  }

  setMethod(value: string): void {
    this.methodInput = value;
    this.#scheduleTyping();
  }

  setSearch(value: string): void {
    this.searchInput = value;
    this.#scheduleTyping();
  }

  #scheduleTyping(): void {
    clearTimeout(this.#typingTimer);
    this.#typingTimer = setTimeout(() => {
      this.#method = this.methodInput;
      this.#search = this.searchInput;
    }, TYPING_DEBOUNCE_MS);
  }

  select(index: number): void {
    this.selected = this.filtered[index] ?? null;
  }

  clear(): void {
    this.log.clear();
    this.selected = null;
    this.report = null;
    this.refresh();
  }

  /** Offer the whole log as a JSONL download stamped with the wall clock; returns the file name. */
  exportLog(): string {
    return downloadLog(this.log, this.#clock.wallNow());
  }

  /** Open the selected frame's payload in the Validate workbench. */
  validateSelected(): void {
    if (this.selected) validateFrames([this.selected], this.#exportMeta(), "Traffic");
  }

  /** Validate every frame in the log, whatever the filters show, in the Validate workbench. */
  validateAll(): void {
    validateFrames(this.log.entries(), this.#exportMeta(), "Traffic log");
  }

  #exportMeta() {
    return { capacity: this.log.capacity, dropped: this.log.dropped, exportedAt: this.#clock.wallNow() };
  }

  /** Replace the log with a JSONL file's entries and keep a report of what happened. */
  async importFile(file: File): Promise<void> {
    this.importing = true;
    this.report = null;
    try {
      this.report = await importIntoLog(this.log, file);
      this.selected = null;
    } finally {
      this.importing = false;
      this.refresh();
    }
  }

  /** Show the log's current state now rather than at the next throttled update. */
  refresh(): void {
    clearTimeout(this.#liveTimer);
    this.#applySnapshot();
  }
}
