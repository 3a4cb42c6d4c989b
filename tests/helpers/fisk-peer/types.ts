/**
 * The options and records of the fisk-ai test peer: what it serves, how each tool and task behaves,
 * and the faults it injects. Field names inside wire objects (`input_schema`, `conversation_token`…)
 * keep their wire spelling so a script reads like the message it produces.
 */

export type PeerGeneration = "gen2" | "gen1";

/** A declared tool behaviour; each flag absent when undeclared (a tri-state). */
export interface ToolBehavior {
  readonly read_only?: boolean;
  readonly destructive?: boolean;
  readonly idempotent?: boolean;
  readonly open_world?: boolean;
}

/** What a tool run produced. A command tool's reply has an `exec` block; an in-process tool's has none. */
export interface ToolOutcome {
  readonly output?: string;
  /** Sent as `exec.exit_code`; 0 is absent on the wire. */
  readonly exitCode?: number;
  /** The command line without the binary; default the tool name with `_` as spaces. */
  readonly command?: string;
  /** No `exec` block: the tool ran in process. */
  readonly inProcess?: boolean;
  readonly truncated?: boolean;
  /** Harness failure: the tool did not run cleanly; the reply has no `exec`. */
  readonly isError?: boolean;
}

/** A tool's scripted behaviour. Without a script a tool runs at once and prints `<name> ran`. */
export interface ToolScript extends ToolOutcome {
  /** How long the run takes; keepalives are sent every `keepaliveMs` meanwhile (Gen 2). */
  readonly delayMs?: number;
  /**
   * Exactly this many keepalives, `keepaliveMs` apart, then the reply (after `delayMs` if that is
   * longer). Deterministic, unlike the timer-driven keepalives of a plain `delayMs`.
   */
  readonly keepalives?: number;
  /** Refuse every call for capacity, as if all slots were busy. */
  readonly forceCapacity?: boolean;
  /** Answer with this micro error (empty body) instead of any reply set. */
  readonly microError?: { readonly code: number; readonly description: string };
  /** Publish a foreign terminal `tool.reply` (another `request`) to the caller's inbox first. */
  readonly foreign?: "before-ack" | "before-reply";
  /** Acknowledge, then never answer (until the peer stops): for idle-timeout tests. */
  readonly silent?: boolean;
  /** Computes the outcome from the call's input; its fields override the static ones. */
  readonly run?: (input: Record<string, unknown> | undefined) => ToolOutcome;
}

export interface PeerTool {
  readonly name: string;
  readonly description?: string;
  readonly input_schema?: Record<string, unknown>;
  /** Gen 2 only: a Gen 1 card has no behaviour. */
  readonly behavior?: ToolBehavior;
  readonly script?: ToolScript;
}

export interface Usage {
  readonly input_tokens?: number;
  readonly output_tokens?: number;
  readonly cache_read_tokens?: number;
  readonly cache_create_tokens?: number;
  readonly thinking_tokens?: number;
  readonly llm_calls?: number;
  readonly tool_calls?: number;
}

interface QuestionBase {
  /** Minted as a KSUID when absent. */
  readonly question_id?: string;
  readonly tool_use_id?: string;
}

export type Question =
  | (QuestionBase & { readonly kind: "approve"; readonly command: string; readonly display: string; readonly tag?: string })
  | (QuestionBase & { readonly kind: "confirm"; readonly question: string })
  | (QuestionBase & { readonly kind: "select"; readonly question: string; readonly options: readonly string[] })
  | (QuestionBase & { readonly kind: "input"; readonly question: string; readonly default?: string });

export type TaskStep =
  /** An `event.<event>` (any kind, known or not) carrying `block`; skipped when the request said `stream:false`. */
  | { readonly kind: "event"; readonly event: string; readonly block: Record<string, unknown>; readonly delayMs?: number }
  /**
   * An `elicit.request.<kind>` that holds the run until answered on the elicit subject. `windowMs`
   * (sent as `wait_ms`, default 120 s) restarts on each `elicit.waiting`. Unanswered, or answered
   * `no_operator`, an approve ends the run `suspended` and the other kinds end it `deferred`.
   */
  | { readonly kind: "elicit"; readonly question: Question; readonly windowMs?: number }
  /** Wait; a cancel ends the wait at once (the peer's step boundary). */
  | { readonly kind: "pause"; readonly ms: number }
  /** Wait until cancelled (or the peer stops). */
  | { readonly kind: "until-cancel" };

export type TaskEnd =
  | { readonly kind: "result"; readonly stop_reason?: string; readonly text?: string; readonly usage?: Usage; readonly trace_id?: string }
  | { readonly kind: "error"; readonly error: string; readonly code?: string; readonly stop_reason?: string; readonly usage?: Usage };

export interface TaskScript {
  /** Ack fields; the token defaults to the caller's `conversation_token` or a fresh KSUID. */
  readonly ack?: { readonly conversation_token?: string; readonly max_tokens?: number };
  /** Refuse admission: `ack` false with `reason`, then a final `error` with `code`. */
  readonly refuse?: { readonly reason: string; readonly code: string };
  readonly steps?: readonly TaskStep[];
  /** Default: `result` with `stop_reason:"end_turn"`. */
  readonly end?: TaskEnd;
}

export interface FiskPeerOptions {
  /** The agent identity: `^[a-zA-Z0-9_-]+$`. */
  readonly identity: string;
  /** Default `gen2`. */
  readonly generation?: PeerGeneration;
  /** The identity's `instance`, sent in `sender` when set. */
  readonly instance?: string;
  /** Card `version` (the fisk-ai build); default `0.0.5`. */
  readonly version?: string;
  /** Card `model` (Gen 2, only when the identity answers prompts). */
  readonly model?: string;
  readonly telemetry?: boolean;
  /**
   * Served tools. As in fisk-ai v0.0.3 on, a tool without a description is not served: absent from
   * the card and "not available" when called, unless `serveUndescribed` (v0.0.1–v0.0.2) is set.
   */
  readonly tools?: readonly PeerTool[];
  readonly serveUndescribed?: boolean;
  /** Tool calls in flight; Gen 2 refuses past it, Gen 1 queues. Default 2. */
  readonly concurrency?: number;
  /** Gen 2 tool keepalive interval; default 10 000 ms, as fisk-ai. */
  readonly keepaliveMs?: number;
  /** Serve `choria.fisk-ai.task.<identity>` (Gen 2 only); default true for Gen 2. */
  readonly serveTasks?: boolean;
  /** The script for every task request, or one chosen per request body. */
  readonly task?: TaskScript | ((request: Record<string, unknown>) => TaskScript);
  /** Prompts running at once (`prompts.workers`); default 1. */
  readonly taskWorkers?: number;
  /** Hold the elicit subject while a task runs; default true. */
  readonly elicit?: boolean;
  /**
   * Keep finished prompt turns under their conversation token and answer `request.read` from
   * them; default true. False refuses every read (`ack` false, then an `error` with code `rejected`).
   */
  readonly sessionStore?: boolean;
}

/** One message as the peer saw it arrive, or as it sent it. */
export interface PeerRecord {
  /** Where it arrived (received) or where it went (sent). */
  readonly subject: string;
  readonly reply?: string;
  readonly headers: Record<string, string[]>;
  readonly text: string;
  /** performance.now() when it was handled. */
  readonly at: number;
  /**
   * Received: the endpoint (`discovery`, `tool`, `task`, `cancel`, `elicit`, `micro`).
   * Sent: `fisk-ai` (a protocol message), `micro` (a `$SRV` response) or `micro-error`.
   */
  readonly kind: string;
}

export interface FiskPeer {
  readonly identity: string;
  readonly generation: PeerGeneration;
  /** The micro service instance id (`$SRV.*.<identity>.<id>`). */
  readonly serviceId: string;
  /** Everything the peer received, in arrival order (live array). */
  readonly received: readonly PeerRecord[];
  /** Everything the peer sent, in send order (live array). */
  readonly sent: readonly PeerRecord[];
  /** Errors the peer's own handlers threw (a peer bug, not a protocol refusal); empty when healthy. */
  readonly failures: readonly string[];
  /** Request ids of the tasks running now. */
  runningTasks(): string[];
  /** Tool calls running now. */
  toolsInFlight(): number;
  /** Resolves with the first received record that matches, now or later; rejects after `timeoutMs` (default 5 s). */
  waitForReceived(match: (record: PeerRecord) => boolean, timeoutMs?: number): Promise<PeerRecord>;
  /** Ends running work without replying, drains every subscription and closes the connection. Safe twice. */
  stop(): Promise<void>;
}
