import type { WireChannel, WireEntry } from "../../../core/wire/index.ts";

/** Every channel, in toolbar order. */
export const CHANNELS: readonly WireChannel[] = ["mcp", "a2a-http", "nats"];

/** A new set with `item` added when absent or removed when present; the input is left alone. */
export function toggled<T>(set: ReadonlySet<T>, item: T): ReadonlySet<T> {
  const next = new Set(set);
  if (next.has(item)) next.delete(item);
  else next.add(item);
  return next;
}

/** An immutable set of every channel, the unfiltered default. */
export function allChannels(): ReadonlySet<WireChannel> {
  return new Set(CHANNELS);
}

/** The distinct statuses present in the entries, ascending. */
export function distinctStatuses(entries: readonly WireEntry[]): number[] {
  const seen = new Set<number>();
  for (const e of entries) if (e.status !== undefined) seen.add(e.status);
  return [...seen].sort((a, b) => a - b);
}
