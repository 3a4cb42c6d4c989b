import type { ExecResult, JsonObject, Usage } from "./types-common.ts";

/**
 * Gen 2 event blocks: only the variant's own fields, no `type` key. The kind travels as the
 * protocol id (`…event.text`). Gen 1 blocks carry the kind as `type` inside the block.
 */

export interface ThinkingBlock {
  text: string;
  signature?: string;
  provider?: string;
}

export interface TextBlock {
  text: string;
  /** Marks the answer text, which the `result` repeats. */
  final?: boolean;
}

export interface ToolCallBlock {
  id: string;
  name: string;
  input?: JsonObject;
}

export interface ToolResultBlock {
  call_id: string;
  is_error?: boolean;
  /** What the model saw; for a command, a JSON string `{"command","exit_code","output"}`. */
  output?: string;
  exec?: ExecResult;
}

export interface AgentCallBlock {
  id: string;
  name: string;
  task: string;
}

export interface StatusBlock {
  iteration?: number;
  /** `running-tool`, `replay_start`, `replay_end`, or none for a per-iteration status. */
  phase?: string;
  usage?: Usage;
  count?: number;
  truncated?: boolean;
}

export interface WarningBlock {
  kind: string;
  name?: string;
  count?: number;
  params?: string[];
  error?: string;
}

export interface PromptBlock {
  text: string;
}

/** The Gen 2 block of each named event kind. */
export interface Gen2BlockByKind {
  thinking: ThinkingBlock;
  text: TextBlock;
  tool_call: ToolCallBlock;
  tool_result: ToolResultBlock;
  agent_call: AgentCallBlock;
  status: StatusBlock;
  warning: WarningBlock;
  prompt: PromptBlock;
}

export type Gen1BlockType = "thinking" | "text" | "tool_call" | "tool_result" | "agent_call" | "status";

/** Gen 1 blocks: the same variants (no `final`, `warning`, `prompt`), discriminated by `type`. */
export type Gen1Block =
  | ({ type: "thinking" } & ThinkingBlock)
  | { type: "text"; text: string }
  | ({ type: "tool_call" } & ToolCallBlock)
  | ({ type: "tool_result" } & ToolResultBlock)
  | ({ type: "agent_call" } & AgentCallBlock)
  | { type: "status"; iteration?: number; phase?: string; usage?: Pick<Usage, "input_tokens" | "output_tokens"> };
