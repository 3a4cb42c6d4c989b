/** The backend's log lines: one per event, to a writer (stderr in the CLI, a buffer in tests). */
import { sinkLogger } from "../src/core/env/defaults.ts";
import type { Logger, LogFields } from "../src/core/env/environment.ts";

export type LogLevel = keyof Logger;

const RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

function formatField(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return /^[^\s"=]+$/.test(text ?? "") ? (text as string) : JSON.stringify(text);
}

/** `message key=value …` with the level in front. */
export function formatLogLine(level: LogLevel, message: string, fields?: LogFields): string {
  const parts = [`[patchbay] ${level.padEnd(5)} ${message}`];
  for (const [key, value] of Object.entries(fields ?? {})) {
    if (value !== undefined) parts.push(`${key}=${formatField(value)}`);
  }
  return `${parts.join(" ")}\n`;
}

/** A logger writing formatted lines at or above `min`. */
export function lineLogger(write: (line: string) => void, min: LogLevel = "info"): Logger {
  return sinkLogger((level, message, fields) => {
    if (RANK[level] >= RANK[min]) write(formatLogLine(level, message, fields));
  });
}
