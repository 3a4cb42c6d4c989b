import { WIRE_CHANNELS, type WireChannel } from "../../../core/wire/index.ts";

/** A new set with `item` added when absent or removed when present; the input is left alone. */
export function toggled<T>(set: ReadonlySet<T>, item: T): ReadonlySet<T> {
  const next = new Set(set);
  if (next.has(item)) next.delete(item);
  else next.add(item);
  return next;
}

/** An immutable set of every channel, the unfiltered default. */
export function allChannels(): ReadonlySet<WireChannel> {
  return new Set(WIRE_CHANNELS);
}
