import type { Clock } from "../../../core/env/index.ts";
import { LOGGING_LEVELS, type LoggingLevel, type McpConnectionEvents } from "../../../core/mcp/connection-types.ts";

export interface LogEntry {
  readonly id: number;
  readonly level: LoggingLevel;
  readonly logger: string | undefined;
  readonly data: unknown;
  /** Wall time of arrival, ms since the epoch. */
  readonly at: number;
}

export const MAX_LOG_ENTRIES = 1_000;
const MAX_DATA_CHARS = 4_000;

const rank = (level: LoggingLevel) => LOGGING_LEVELS.indexOf(level);

/** A log message's data as text: strings as they are, anything else as JSON; long data is cut with a note. */
export function logText(data: unknown): string {
  const text = typeof data === "string" ? data : (JSON.stringify(data) ?? String(data));
  return text.length > MAX_DATA_CHARS ? `${text.slice(0, MAX_DATA_CHARS)}… (${text.length - MAX_DATA_CHARS} more characters)` : text;
}

/** Where `logging/setLevel` can be sent: the open connection, while the server declares logging. */
export interface LevelTarget {
  setLoggingLevel(level: LoggingLevel): Promise<void>;
  /** "ping" on a legacy connection: a modern one takes the level with each request instead. */
  readonly pingMethod?: string;
}

/**
 * The server's notifications/message, newest last, bounded (the oldest go first), shown from a
 * chosen level up; and `logging/setLevel`, which asks the server to send less or more.
 */
export class LogState {
  entries = $state.raw<readonly LogEntry[]>([]);
  /** How many old entries were dropped to stay within the bound. */
  dropped = $state(0);
  /** Show entries at this level and above. */
  showFrom = $state<LoggingLevel>("debug");
  /** The level to ask the server for. */
  requestLevel = $state<LoggingLevel>("info");
  setting = $state(false);
  /** What the last logging/setLevel did, in words. */
  levelStatus = $state.raw<{ readonly ok: boolean; readonly text: string } | null>(null);

  readonly visible: readonly LogEntry[] = $derived.by(() => {
    const from = rank(this.showFrom);
    return from === 0 ? this.entries : this.entries.filter((e) => rank(e.level) >= from);
  });

  readonly #clock: Clock;
  #next = 1;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  readonly add = (message: McpConnectionEvents["log"]): void => {
    const entry: LogEntry = { id: this.#next++, level: message.level, logger: message.logger, data: message.data, at: this.#clock.wallNow() };
    const next = [...this.entries, entry];
    const excess = next.length - MAX_LOG_ENTRIES;
    if (excess > 0) this.dropped += excess;
    this.entries = excess > 0 ? next.slice(excess) : next;
  };

  clear(): void {
    this.entries = [];
    this.dropped = 0;
  }

  async setLevel(target: LevelTarget | undefined): Promise<void> {
    if (!target || this.setting) return;
    const level = this.requestLevel;
    this.setting = true;
    try {
      await target.setLoggingLevel(level);
      const perRequest = target.pingMethod === "server/discover";
      this.levelStatus = {
        ok: true,
        text: perRequest
          ? `Each request from now on asks for messages at ${level} and above (io.modelcontextprotocol/logLevel in its _meta; 2026-07-28 has no logging/setLevel).`
          : `The server now sends messages at ${level} and above.`,
      };
    } catch (error) {
      this.levelStatus = { ok: false, text: `logging/setLevel failed: ${(error as Error).message}` };
    } finally {
      this.setting = false;
    }
  }
}
