import type { EraSetting } from "../mcp/era.ts";
/**
 * A collection: named targets, environments of variables, and steps across MCP, A2A over HTTP
 * and NATS, each with the assertions its answer must pass and the values it hands to later steps.
 * This is the payload of a `patchbay.collections` workspace document; one file per collection.
 *
 * Strings in targets and actions may hold `{{name}}` references: a variable of the chosen
 * environment, a secret (declared by name, resolved from an environment variable or typed in,
 * never written to the file), or a value captured by an earlier step.
 */
import type { Binding, Dialect, Operation } from "../a2a/dialect.ts";

export type HarnessProtocol = "mcp" | "a2a" | "nats";

/** An MCP server: a URL (Streamable HTTP, falling back to HTTP+SSE) or a stdio command line. */
export interface McpTargetSpec {
  readonly protocol: "mcp";
  readonly url?: string;
  /** A command line started without a shell; exactly one of url and command. */
  readonly command?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** The protocol era to reach the server in; legacy (initialize) when absent. */
  readonly era?: EraSetting;
}

/** An A2A agent: its card URL or base URL; the dialect and binding when not the card's first. */
export interface A2aTargetSpec {
  readonly protocol: "a2a";
  readonly card: string;
  readonly dialect?: Dialect;
  readonly binding?: Binding;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A NATS server (or comma-separated cluster); `token` usually a `{{secret}}` reference. */
export interface NatsTargetSpec {
  readonly protocol: "nats";
  readonly server: string;
  readonly token?: string;
}

export type TargetSpec = McpTargetSpec | A2aTargetSpec | NatsTargetSpec;

/** Any MCP request on the target's session; `tools/call` is `{method, params: {name, arguments}}`. */
export interface McpAction {
  readonly protocol: "mcp";
  readonly method: string;
  readonly params?: Readonly<Record<string, unknown>>;
}

/** An A2A operation by its own name, spelled for the target's dialect and binding when sent. */
export interface A2aAction {
  readonly protocol: "a2a";
  readonly operation: Operation;
  /** A text message (send, stream); `message` for other parts. */
  readonly text?: string;
  readonly message?: Readonly<Record<string, unknown>>;
  readonly taskId?: string;
  readonly contextId?: string;
}

/** A plain NATS request: the reply, or no responders, or a timeout. */
export interface NatsRequestAction {
  readonly protocol: "nats";
  readonly kind: "request";
  readonly subject: string;
  readonly payload: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A fisk-ai tool call to an agent by identity: the whole reply set. */
export interface NatsToolAction {
  readonly protocol: "nats";
  readonly kind: "tool";
  readonly identity: string;
  readonly tool: string;
  readonly input?: Readonly<Record<string, unknown>> | null;
}

/** A fisk-ai task to an agent by identity. */
export interface NatsTaskAction {
  readonly protocol: "nats";
  readonly kind: "task";
  readonly identity: string;
  readonly text: string;
}

export type NatsAction = NatsRequestAction | NatsToolAction | NatsTaskAction;
export type StepAction = McpAction | A2aAction | NatsAction;

/**
 * How a step ended, in one vocabulary for all three protocols, so one assertion reads them all.
 * `result` is success in the protocol's own terms (a tools/call result without isError, a
 * completed task or a message, a tool that ran with exit code 0, a NATS reply).
 */
export type OutcomeKind =
  | "result"
  | "is-error"
  | "exit-code"
  | "json-rpc-error"
  | "task-state"
  | "capacity-refusal"
  | "not-available"
  | "refused"
  | "no-responders"
  | "timeout"
  | "cancelled"
  | "transport-error"
  | "invalid-answer";

export interface StepOutcome {
  readonly kind: OutcomeKind;
  /** exit-code: the exit code (0 is `result`); json-rpc-error: the error code; refused: the micro code. */
  readonly code?: number;
  /** task-state: the A2A task's last state (completed is `result`). */
  readonly state?: string;
  /** In the console's words, for reports. */
  readonly message: string;
}

/** A number exactly, or a range. */
export type CountSpec = number | { readonly min?: number; readonly max?: number };

export type Assertion =
  /** Every frame the peer sent in this step is valid for its protocol (and version, when given). */
  | { readonly kind: "valid"; readonly version?: string }
  | { readonly kind: "equals"; readonly pointer: string; readonly value: unknown }
  /** The value at the pointer is a string matching the regular expression. */
  | { readonly kind: "matches"; readonly pointer: string; readonly pattern: string }
  | { readonly kind: "exists"; readonly pointer: string }
  | { readonly kind: "absent"; readonly pointer: string }
  /** `code` for exit-code, json-rpc-error and refused; `state` for task-state. */
  | { readonly kind: "outcome"; readonly is: OutcomeKind; readonly code?: number; readonly state?: string }
  | { readonly kind: "latency"; readonly belowMs: number }
  /**
   * The answer's messages (an SSE stream's events, a reply set's messages): how many, the order
   * of their kinds (a subsequence), and whether the last is the protocol's final marker.
   */
  | { readonly kind: "stream"; readonly count?: CountSpec; readonly order?: readonly string[]; readonly final?: boolean };

export type AssertionKind = Assertion["kind"];

export interface Step {
  /** Unique in the collection; names the step in reports and JUnit test cases. */
  readonly name: string;
  /** A key of the collection's targets. */
  readonly target: string;
  readonly action: StepAction;
  readonly assert?: readonly Assertion[];
  /** Variable name → JSON pointer into this step's answer body, for later steps' `{{name}}`. */
  readonly capture?: Readonly<Record<string, string>>;
  /** The step's own time limit; the collection's default otherwise. */
  readonly timeoutMs?: number;
}

export interface SecretSpec {
  /** The environment variable a headless run reads it from. */
  readonly env: string;
  readonly description?: string;
}

export interface Collection {
  readonly name: string;
  readonly description?: string;
  readonly targets: Readonly<Record<string, TargetSpec>>;
  /** Environment name → variable name → value. */
  readonly environments: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Secret name → where it comes from; values are never stored. */
  readonly secrets?: Readonly<Record<string, SecretSpec>>;
  readonly steps: readonly Step[];
  /** Default per-step time limit in ms. */
  readonly timeoutMs?: number;
}
