import type { Clock, IdSource, Logger, LogFields } from "./environment.ts";

/** A clock over the runtime's own `performance` and `Date`, passed in rather than reached for. */
export function systemClock(perf: { now(): number }, date: { now(): number }): Clock {
  return { now: () => perf.now(), wallNow: () => date.now() };
}

/** Random ids from an injected `crypto.getRandomValues`; 16 random bytes, hex. */
export function randomIds(getRandomValues: (bytes: Uint8Array) => Uint8Array): IdSource {
  return {
    next() {
      const bytes = getRandomValues(new Uint8Array(16));
      let out = "";
      for (const b of bytes) out += b.toString(16).padStart(2, "0");
      return out;
    },
  };
}

/** Deterministic clock for tests: time moves only when told. */
export function manualClock(start = 0, wallStart = 1_700_000_000_000): Clock & { advance(ms: number): void } {
  let t = start;
  return {
    now: () => t,
    wallNow: () => wallStart + (t - start),
    advance(ms: number) {
      t += ms;
    },
  };
}

/** Deterministic ids for tests: `prefix-1`, `prefix-2`, … */
export function sequentialIds(prefix = "id"): IdSource {
  let n = 0;
  return { next: () => `${prefix}-${++n}` };
}

export type LogSink = (level: keyof Logger, message: string, fields?: LogFields) => void;

/** A logger that forwards to a sink; the sink decides where lines go. */
export function sinkLogger(sink: LogSink): Logger {
  return {
    debug: (m, f) => sink("debug", m, f),
    info: (m, f) => sink("info", m, f),
    warn: (m, f) => sink("warn", m, f),
    error: (m, f) => sink("error", m, f),
  };
}

export const silentLogger: Logger = sinkLogger(() => {});
