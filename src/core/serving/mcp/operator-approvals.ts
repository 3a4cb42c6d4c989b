/**
 * Confirm-gated calls waiting for the Patchbay operator (the console's user) to decide. Each
 * waits at most the timeout; the queue is bounded by count and by the size of the arguments it
 * holds, so a flood of calls is refused rather than kept.
 */
import type { Scheduler } from "../../env/scheduler.ts";
import type { OperatorVerdict } from "../confirm-gate.ts";

/** How long a confirm-gated call waits for the user's answer (kept here, light, so the backend loads no ajv for it). */
export const APPROVAL_TIMEOUT_MS = 120_000;

export const MAX_PENDING_APPROVALS = 100;
/** The arguments of every waiting call together, as JSON characters. */
export const MAX_APPROVAL_CHARS = 8 * 1024 * 1024;

export type ApprovalSurface = "mcp";

/** One call the operator is asked about. */
export interface ApprovalAsk {
  readonly surface: ApprovalSurface;
  readonly tool: string;
  /** What would run, as the operator sees it. */
  readonly what: string;
  readonly arguments: unknown;
  /** The caller gave up (cancelled, disconnected): the question is withdrawn. */
  readonly signal?: AbortSignal;
}

/** A waiting call as the console lists it; times are epoch ms. */
export interface PendingApproval {
  readonly id: string;
  readonly surface: ApprovalSurface;
  readonly tool: string;
  readonly what: string;
  readonly arguments: unknown;
  readonly askedAt: number;
  readonly expiresAt: number;
}

/** What the gate needs: a question that resolves with the verdict, never rejects. */
export interface OperatorDecider {
  ask(request: ApprovalAsk): Promise<OperatorVerdict>;
}

export interface OperatorApprovalsOptions {
  readonly scheduler: Scheduler;
  /** Wall clock, epoch ms. */
  readonly now: () => number;
  /** Fresh unguessable ids. */
  readonly newId: () => string;
  /** Default two minutes. */
  readonly timeoutMs?: number;
  readonly capacity?: number;
  readonly maxChars?: number;
}

interface Entry {
  readonly approval: PendingApproval;
  readonly chars: number;
  readonly finish: (verdict: OperatorVerdict) => void;
}

function jsonChars(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return 0;
  }
}

export class OperatorApprovals implements OperatorDecider {
  readonly timeoutMs: number;
  readonly capacity: number;
  readonly #maxChars: number;
  readonly #scheduler: Scheduler;
  readonly #now: () => number;
  readonly #newId: () => string;
  readonly #pending = new Map<string, Entry>();
  #chars = 0;

  constructor(options: OperatorApprovalsOptions) {
    this.#scheduler = options.scheduler;
    this.#now = options.now;
    this.#newId = options.newId;
    this.timeoutMs = options.timeoutMs ?? APPROVAL_TIMEOUT_MS;
    this.capacity = options.capacity ?? MAX_PENDING_APPROVALS;
    this.#maxChars = options.maxChars ?? MAX_APPROVAL_CHARS;
  }

  get size(): number {
    return this.#pending.size;
  }

  ask(request: ApprovalAsk): Promise<OperatorVerdict> {
    const { signal } = request;
    if (signal?.aborted) return Promise.resolve("cancelled");
    const chars = jsonChars(request.arguments);
    if (this.#pending.size >= this.capacity || this.#chars + chars > this.#maxChars) return Promise.resolve("full");
    let id = this.#newId();
    while (this.#pending.has(id)) id = this.#newId();
    const askedAt = this.#now();
    const approval: PendingApproval = {
      id,
      surface: request.surface,
      tool: request.tool,
      what: request.what,
      arguments: request.arguments,
      askedAt,
      expiresAt: askedAt + this.timeoutMs,
    };
    return new Promise<OperatorVerdict>((resolve) => {
      let cancelTimer = (): void => undefined;
      const finish = (verdict: OperatorVerdict): void => {
        if (this.#pending.get(id)?.approval !== approval) return;
        this.#pending.delete(id);
        this.#chars -= chars;
        cancelTimer();
        signal?.removeEventListener("abort", withdraw);
        resolve(verdict);
      };
      const withdraw = (): void => finish("cancelled");
      this.#pending.set(id, { approval, chars, finish });
      this.#chars += chars;
      cancelTimer = this.#scheduler.after(this.timeoutMs, () => finish("expired"));
      signal?.addEventListener("abort", withdraw, { once: true });
    });
  }

  /** Every waiting call, oldest first. */
  list(): PendingApproval[] {
    return [...this.#pending.values()].map((entry) => entry.approval);
  }

  /** Applies the operator's decision once; false when the id is unknown, decided or expired. */
  decide(id: string, approve: boolean): boolean {
    const entry = this.#pending.get(id);
    if (!entry) return false;
    entry.finish(approve ? "approved" : "refused");
    return true;
  }

  /** Dismisses every waiting call (serving stops); returns how many there were. */
  dismissAll(): number {
    const entries = [...this.#pending.values()];
    for (const entry of entries) entry.finish("dismissed");
    return entries.length;
  }
}
