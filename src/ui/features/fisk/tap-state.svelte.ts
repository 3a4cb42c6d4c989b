import { SvelteMap } from "svelte/reactivity";
import { DEFAULT_TAP_SUBJECTS, type Tap, type TapFrame } from "../../../core/fisk/client/index.ts";
import type { Scheduler } from "../../../core/env/index.ts";
import type { Verdict } from "../../../core/validation/types.ts";
import { NOT_CONNECTED, type FiskSource } from "./fisk-api.ts";
import { ExchangeNumbers } from "./tap-view.ts";
import { keepFields } from "../../state/drafts.svelte.ts";

/** Frames kept for the list; older ones leave it (the Traffic log keeps its own window). */
export const TAP_CAPACITY = 20_000;
/** New frames reach the list in batches, so a busy subject does not re-render per message. */
const FLUSH_MS = 50;

export function parseSubjects(text: string): { subjects: string[]; error: string | null } {
  const subjects = text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (subjects.length === 0) return { subjects, error: "give at least one subject to tap" };
  const bad = subjects.find((s) => /\s/.test(s) || s.split(".").some((t) => t === "") || /(^|\.)>[^.]|>\./.test(s));
  return { subjects, error: bad ? `${JSON.stringify(bad)} is not a valid subject or wildcard` : null };
}

/** A tapped frame with its place in the list and the exchange it belongs to. */
export interface TapRow {
  readonly index: number;
  readonly frame: TapFrame;
  /** Frames of one exchange (same reply inbox) share this number; 0 when unpaired. */
  readonly exchange: number;
}

/** The Tap panel: subjects, start and stop, and every frame seen, decoded and checked. */
export class TapState {
  subjectsText = $state(DEFAULT_TAP_SUBJECTS.join("\n"));
  running = $state(false);
  rows = $state.raw<readonly TapRow[]>([]);
  dropped = $state(0);
  selected = $state(-1);
  error = $state<string | null>(null);
  failures = $state.raw<readonly string[]>([]);
  readonly verdicts = new SvelteMap<number, Verdict | string>();

  readonly selectedRow = $derived(this.rows[this.selected]);
  /** The other frames of the selected frame's exchange. */
  readonly partners = $derived.by(() => {
    const row = this.selectedRow;
    if (!row || row.exchange === 0) return [];
    return this.rows.filter((r) => r.exchange === row.exchange && r !== row);
  });
  startedAt = 0;

  readonly #source: FiskSource;
  readonly #scheduler: Scheduler;
  #tap: Tap | null = null;
  #buffer: TapRow[] = [];
  #cancelFlush: (() => void) | null = null;
  #next = 0;
  readonly #exchanges = new ExchangeNumbers();

  constructor(source: FiskSource, scheduler: Scheduler) {
    this.#source = source;
    this.#scheduler = scheduler;
    keepFields(this, "fisk.tap", ["subjectsText"]);
  }

  start(): void {
    if (this.running) return;
    const { subjects, error } = parseSubjects(this.subjectsText);
    const starter = this.#source.tap();
    this.error = error ?? (starter ? null : NOT_CONNECTED);
    if (error || !starter) return;
    try {
      this.#tap = starter(subjects, (f) => this.#receive(f));
    } catch (err) {
      this.error = `The tap could not start: ${(err as Error).message}`;
      return;
    }
    this.running = true;
    this.failures = [...this.#tap.failures];
  }

  stop(reason?: string): void {
    this.#tap?.stop();
    this.#tap = null;
    this.#flush();
    if (reason && this.running) this.error = reason;
    this.running = false;
  }

  clear(): void {
    this.#buffer = [];
    this.rows = [];
    this.verdicts.clear();
    this.#exchanges.clear();
    this.dropped = 0;
    this.selected = -1;
  }

  select(index: number): void {
    this.selected = index;
  }

  #receive(frame: TapFrame): void {
    if (this.rows.length === 0 && this.#buffer.length === 0) this.startedAt = frame.at;
    const row: TapRow = { index: this.#next++, frame, exchange: this.#exchanges.of(frame.correlation) };
    this.#buffer.push(row);
    if (frame.verdict) this.verdicts.set(row.index, frame.verdict);
    else if (frame.decoded?.ok) void this.#check(row.index, frame.decoded.text);
    this.#cancelFlush ??= this.#scheduler.after(FLUSH_MS, () => this.#flush());
  }

  async #check(index: number, text: string): Promise<void> {
    try {
      this.verdicts.set(index, await this.#source.validate(text));
    } catch (err) {
      this.verdicts.set(index, `not checked: ${(err as Error).message}`);
    }
  }

  #flush(): void {
    this.#cancelFlush?.();
    this.#cancelFlush = null;
    if (this.#buffer.length === 0) return;
    const all = [...this.rows, ...this.#buffer];
    this.#buffer = [];
    const over = Math.max(0, all.length - TAP_CAPACITY);
    if (over > 0) {
      for (const r of all.slice(0, over)) this.verdicts.delete(r.index);
      this.dropped += over;
      this.selected = Math.max(-1, this.selected - over);
    }
    this.rows = over > 0 ? all.slice(over) : all;
    if (this.#tap) this.failures = [...this.#tap.failures];
  }
}
