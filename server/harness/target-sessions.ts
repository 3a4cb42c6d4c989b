import type { StepObservation } from "../../src/core/harness/run-types.ts";

/** A connect that failed answers with the step's observation instead of a session. */
export const isObservation = <S>(value: S | StepObservation): value is StepObservation => typeof value === "object" && value !== null && "outcome" in value && "frames" in value;

/**
 * Sessions kept per target name across a run's steps, opened on first use. A step whose target
 * resolved to another spec (a variable changed) gets a new session; the old one is closed.
 */
export class TargetSessions<S> {
  readonly #open = new Map<string, { readonly key: string; readonly session: S }>();
  readonly #close: (session: S) => Promise<void>;

  constructor(close: (session: S) => Promise<void>) {
    this.#close = close;
  }

  /** The open session of `name` for this spec, if there is one; one for another spec is closed. */
  async get(name: string, spec: unknown): Promise<S | undefined> {
    const open = this.#open.get(name);
    if (!open) return undefined;
    if (open.key === JSON.stringify(spec)) return open.session;
    await this.drop(name);
    return undefined;
  }

  /**
   * The session of `name` for this spec, opened with `open` when there is none; `open` may
   * answer with what to report instead (a failed connect), which is passed through unkept.
   */
  async getOrOpen<F>(name: string, spec: unknown, open: () => Promise<S | F>, failed: (opened: S | F) => opened is F): Promise<S | F> {
    const kept = await this.get(name, spec);
    if (kept !== undefined) return kept;
    const opened = await open();
    if (!failed(opened)) this.set(name, spec, opened);
    return opened;
  }

  set(name: string, spec: unknown, session: S): void {
    this.#open.set(name, { key: JSON.stringify(spec), session });
  }

  /** Forgets and closes the session of `name` (after its connection failed). */
  async drop(name: string): Promise<void> {
    const open = this.#open.get(name);
    if (!open) return;
    this.#open.delete(name);
    await this.#close(open.session).catch(() => undefined);
  }

  async closeAll(): Promise<void> {
    const sessions = [...this.#open.values()];
    this.#open.clear();
    await Promise.allSettled(sessions.map((s) => this.#close(s.session)));
  }
}
