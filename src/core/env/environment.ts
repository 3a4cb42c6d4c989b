import type { NatsConnector } from "../nats/port.ts";
import type { DocumentStore } from "../persist/document-store.ts";

/** Monotonic time for measuring, wall time for display. Both in milliseconds. */
export interface Clock {
  /** Monotonic, sub-millisecond where the runtime allows (performance.now()). */
  now(): number;
  /** Milliseconds since the Unix epoch. */
  wallNow(): number;
}

export interface IdSource {
  /** A fresh, unique, URL-safe identifier. */
  next(): string;
}

export type LogFields = Record<string, unknown>;

/** Structured logger. Callers must never pass secrets (tokens, passwords, seeds). */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

/**
 * Everything core code may use to reach the world. Core never touches a global for I/O:
 * the browser, Node and tests each build one of these and pass it in.
 */
export interface Environment {
  readonly fetch: typeof fetch;
  /** Null where no NATS transport exists in this runtime. */
  readonly nats: NatsConnector | null;
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly logger: Logger;
  readonly storage: DocumentStore;
}
