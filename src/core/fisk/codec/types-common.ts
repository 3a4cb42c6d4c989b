/**
 * The parts shared by fisk-ai messages, as they travel: snake_case keys, a flat header. Optional
 * properties are the ones Go omits when empty (or leaves nil); the decoder hands back the parsed
 * object as it arrived, so these types describe a valid message, not a validated one.
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

/** `{"name": …, "instance"?: …}`: an unverified claim about who sent a message. */
export interface Identity {
  name: string;
  instance?: string;
}

/** The header embedded at the top level of every message, in wire order. */
export interface Header<P extends string = string> {
  protocol: P;
  /** This message: a fresh KSUID per message. */
  id: string;
  /** The turn or request tag every reply echoes; at most 64 bytes of `[A-Za-z0-9_-]`. */
  request: string;
  /** The caller's own correlation; echoed, never interpreted. */
  conversation: string;
  parent?: string;
  /** Reply-set ordering: ack = 1, then gap-free. Requests and single replies carry 0. */
  sequence: number;
  /** RFC 3339, UTC, nanoseconds with trailing zeros trimmed. */
  time: string;
  sender: Identity;
  recipient?: Identity;
  must_understand?: boolean;
  /** Gen 2 only: W3C trace context. Never send it to a peer not known to be Gen 2. */
  traceparent?: string;
}

/** Header fields without the protocol id, as the stamping helpers produce them. */
export type HeaderFields = Omit<Header, "protocol">;

/** Gen 2 usage; Gen 1 has only the first two. All counts are omitted when zero. */
export interface Usage {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_tokens?: number;
  cache_create_tokens?: number;
  thinking_tokens?: number;
  llm_calls?: number;
  tool_calls?: number;
}

export interface Budget {
  max_tokens?: number;
  max_iterations?: number;
  /** A Go duration string; the worker ignores it. */
  call_timeout?: string;
}

/** Present only when a command ran. `exit_code` 0 is absent on the wire. */
export interface ExecResult {
  command?: string;
  exit_code?: number;
  truncated?: boolean;
}

/** Each hint is tri-state: absent means undeclared, `false` is a declaration. */
export interface ToolBehavior {
  read_only?: boolean;
  destructive?: boolean;
  idempotent?: boolean;
  open_world?: boolean;
}

export interface ToolDescriptor {
  /** The tool's name on the serving agent. */
  name: string;
  description?: string;
  /** A map on the Go side: sorted keys on the wire. Absent means `{"type":"object"}`. */
  input_schema?: JsonObject;
  /** Gen 2 only. */
  behavior?: ToolBehavior;
}

export interface AgentCard {
  name: string;
  version: string;
  description?: string;
  protocols?: string[];
  tools?: ToolDescriptor[];
  /** Gen 2 only, like the two telemetry flags. */
  model?: string;
  telemetry?: boolean;
  telemetry_content?: boolean;
}

export type QuestionKind = "approve" | "confirm" | "select" | "input";
export type ApproveChoice = "no" | "once" | "always";

/** A late answer carried by `request.answer`; a select answer names the option text. */
export interface Answer {
  tool_use_id: string;
  kind: QuestionKind;
  answer: "choice" | "confirmed" | "value" | "no_operator";
  choice?: ApproveChoice;
  confirmed?: boolean;
  value?: string;
}
