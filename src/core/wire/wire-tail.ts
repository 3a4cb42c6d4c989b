import { importWireJsonl, wireJsonlLines } from "./jsonl.ts";
import { wireEntryLine } from "./jsonl-entry.ts";
import type { WireEntry } from "./wire-entry.ts";
import type { WireLog } from "./wire-log.ts";

/** The newest entries of a log as a JSONL export, no longer than `maxChars`. */
export interface WireTail {
  readonly text: string;
  /** Entries written. */
  readonly kept: number;
  /** Older entries of the log left out to stay within the budget. */
  readonly left: number;
}

/** Entries are immutable once logged, so a line is built once however often the tail is taken. */
const lines = new WeakMap<WireEntry, string>();
function lineOf(e: WireEntry): string {
  let line = lines.get(e);
  if (line === undefined) lines.set(e, (line = wireEntryLine(e)));
  return line;
}

/**
 * The newest entries that fit `maxChars` as a wire log export (the same format as Export JSONL),
 * oldest first, so a page can keep its log across a reload in a bounded browser storage.
 */
export function wireLogTail(log: WireLog, maxChars: number, wallNow: number): WireTail {
  const entries = log.entries();
  const kept: string[] = [];
  // Room for the header line, whose numbers are at most a few dozen characters.
  let used = 200;
  for (let i = entries.length - 1; i >= 0; i--) {
    const line = lineOf(entries[i] as WireEntry);
    if (used + line.length + 1 > maxChars) break;
    used += line.length + 1;
    kept.push(line);
  }
  kept.reverse();
  const keptEntries = entries.slice(entries.length - kept.length);
  // The generator is lazy: taking its first line builds the header only.
  const header = wireJsonlLines(keptEntries, { capacity: log.capacity, dropped: log.dropped, exportedAt: wallNow }).next().value ?? "";
  const text = header + kept.map((l) => `${l}\n`).join("");
  return { text, kept: kept.length, left: entries.length - kept.length };
}

/** Puts a tail written by wireLogTail back into an empty log; returns how many entries came back. */
export function restoreWireTail(log: WireLog, text: string): number {
  const { entries } = importWireJsonl(text);
  log.restore(entries);
  return entries.length;
}
