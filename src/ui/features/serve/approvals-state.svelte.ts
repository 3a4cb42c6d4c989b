import { BackendError } from "../../../core/backend/backend-client.ts";
import type { PendingApproval, ServeApi } from "../../../core/backend/serve-api.ts";
import type { Clock, Scheduler } from "../../../core/env/index.ts";
import { repeat } from "./poller.ts";
import { failure } from "./start-fields.ts";

export type ApprovalApi = Pick<ServeApi, "approvals" | "decide">;
export const APPROVAL_POLL_MS = 1_000;

/** Formats what is left of an approval's wait, e.g. "1:05 left". */
export function timeLeft(approval: PendingApproval, now: number): string {
  const seconds = Math.max(0, Math.ceil((approval.expiresAt - now) / 1000));
  if (seconds === 0) return "expiring";
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")} left`;
}

/**
 * The operator's queue: confirm-tagged calls from MCP clients waiting for the console's answer,
 * read every second while the surface runs in operator mode and someone is looking.
 */
export class ApprovalsState {
  pending = $state<PendingApproval[]>([]);
  /** Wall time of the last read, for the time left. */
  now = $state(0);
  deciding = $state<string | null>(null);
  notice = $state<string | null>(null);
  error = $state<string | null>(null);

  readonly #api: ApprovalApi;
  readonly #clock: Clock;
  readonly #scheduler: Scheduler;
  // Answered here: a read that raced the answer must not bring them back.
  #answered: string[] = [];

  constructor(api: ApprovalApi, clock: Clock, scheduler: Scheduler) {
    this.#api = api;
    this.#clock = clock;
    this.#scheduler = scheduler;
  }

  /** Starts reading the queue; the returned function stops and empties it. */
  follow(): () => void {
    const stop = repeat(this.#scheduler, APPROVAL_POLL_MS, () => this.refresh());
    return () => {
      stop();
      this.pending = [];
    };
  }

  async refresh(): Promise<void> {
    try {
      const list = await this.#api.approvals();
      this.now = this.#clock.wallNow();
      this.pending = list.filter((a) => !this.#answered.includes(a.id));
      this.error = null;
    } catch (err) {
      this.error = failure("Could not read the approval requests", err);
    }
  }

  async decide(id: string, approve: boolean): Promise<void> {
    const approval = this.pending.find((a) => a.id === id);
    if (!approval || this.deciding !== null) return;
    this.deciding = id;
    try {
      await this.#api.decide(id, approve);
      this.notice = `${approve ? "Approved" : "Refused"}: ${approval.what}.`;
      this.error = null;
    } catch (err) {
      this.notice = null;
      this.error =
        err instanceof BackendError && err.status === 404
          ? `The request to run ${approval.what} is no longer waiting: it expired or was answered already.`
          : failure(`Could not send the answer for ${approval.what}`, err);
      if (!(err instanceof BackendError && err.status === 404)) return;
    } finally {
      this.deciding = null;
    }
    this.#answered = [...this.#answered.slice(-999), id];
    this.pending = this.pending.filter((a) => a.id !== id);
  }
}
