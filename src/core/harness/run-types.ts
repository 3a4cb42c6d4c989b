/**
 * What running a collection produces: each step's observation (the frames exchanged, verbatim,
 * the answer body pointers read, the outcome, the latency) and the verdict of each assertion.
 * Executors turn a resolved step into an observation; they are injected, one per protocol, so
 * the same runner drives the page (through the backend) and `patchbay run`.
 */
import type { Scheduler } from "../env/scheduler.ts";
import type { Assertion, HarnessProtocol, Step, StepAction, StepOutcome, TargetSpec } from "./collection-types.ts";

/** One frame of a step, as it went over the wire. */
export interface StepFrame {
  readonly direction: "sent" | "received";
  /** Milliseconds since the step started. */
  readonly atMs: number;
  /** The frame's text verbatim (a JSON-RPC message, an SSE event's data, a NATS payload). */
  readonly text: string;
  /** What carried it, e.g. "POST /mcp", "SSE message", "choria.fisk-ai.tool.demo". */
  readonly channel?: string;
  /** The frame's own validity, when the executor checked it. */
  readonly validity?: FrameValidity;
}

export interface FrameValidity {
  readonly valid: boolean;
  /** What it was judged as, e.g. "CallToolResult (MCP 2025-11-25)". */
  readonly kind?: string;
  readonly version?: string;
  /** The first problems, `pointer: message`. */
  readonly problems: readonly string[];
}

export interface StepObservation {
  readonly outcome: StepOutcome;
  /**
   * The value JSON pointers read: MCP the JSON-RPC response; A2A the final task or message
   * (the response's result); NATS a reply's payload parsed as JSON (its text when not JSON),
   * a fisk-ai call the final reply message.
   */
  readonly body: unknown;
  readonly frames: readonly StepFrame[];
  /** Request sent to answer complete (or the step given up), ms. */
  readonly latencyMs: number;
  /** The answer's messages' kinds in order (SSE event kinds, fisk-ai message types). */
  readonly stream?: { readonly kinds: readonly string[]; readonly final: boolean };
}

export interface ResolvedStep {
  readonly index: number;
  readonly name: string;
  readonly targetName: string;
  readonly target: TargetSpec;
  readonly action: StepAction;
  readonly timeoutMs: number;
}

export interface ExecutorContext {
  readonly signal: AbortSignal;
}

/** Runs steps of one protocol; may keep sessions per target open until closed. */
export interface StepExecutor {
  run(step: ResolvedStep, ctx: ExecutorContext): Promise<StepObservation>;
  close(): Promise<void>;
}

export type Executors = Readonly<Partial<Record<HarnessProtocol, StepExecutor>>>;

export interface AssertionResult {
  readonly assertion: Assertion;
  readonly passed: boolean;
  /** Why it failed (or what it saw when it passed), in words naming the pointer and values. */
  readonly message: string;
}

/**
 * passed: every assertion passed; failed: one did not; error: the step could not run (an
 * unresolved variable, no executor, an executor threw); skipped: the run stopped before it.
 */
export type StepStatus = "passed" | "failed" | "error" | "skipped";

export interface StepReport {
  readonly index: number;
  readonly name: string;
  readonly protocol: HarnessProtocol;
  readonly target: string;
  readonly status: StepStatus;
  readonly assertions: readonly AssertionResult[];
  readonly outcome?: StepOutcome;
  readonly latencyMs?: number;
  readonly frames: readonly StepFrame[];
  /** Values this step captured for later ones (secrets never appear here). */
  readonly captured: Readonly<Record<string, string>>;
  /** For status error and skipped: why. */
  readonly error?: string;
}

export interface RunTotals {
  readonly steps: number;
  readonly passed: number;
  readonly failed: number;
  readonly errors: number;
  readonly skipped: number;
}

export interface RunReport {
  readonly format: "patchbay.run";
  readonly version: 1;
  readonly collection: string;
  readonly environment: string | null;
  /** ISO time the run started. */
  readonly startedAt: string;
  readonly durationMs: number;
  readonly stopped: boolean;
  readonly steps: readonly StepReport[];
  readonly totals: RunTotals;
}

export type RunEvent =
  | { readonly type: "step-start"; readonly index: number; readonly name: string; readonly total: number }
  | { readonly type: "step-end"; readonly report: StepReport; readonly total: number };

export interface RunOptions {
  readonly environment?: string;
  /** Secret values by secret name, typed in or read from the environment by the caller. */
  readonly secrets?: Readonly<Record<string, string>>;
  /** Target name → replacement spec (`--target`, replaying against another peer). */
  readonly targets?: Readonly<Record<string, TargetSpec>>;
  /** Run only these step indexes (re-run one step), with `captured` from an earlier run. */
  readonly only?: readonly number[];
  readonly captured?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  readonly onEvent?: (event: RunEvent) => void;
  /** Monotonic ms clock and wall clock, injected. */
  readonly now: () => number;
  readonly wallNow: () => number;
  /** Step time limits run on this, injected like the clocks. */
  readonly scheduler: Scheduler;
  /** Frames kept in the report: every step's (the default), or only failed and errored steps'. */
  readonly keepFrames?: "all" | "failed";
  /** Characters of frame text a step keeps (default 256 KiB); later frames become one marker frame. */
  readonly frameTextLimit?: number;
}

export type { Step };
