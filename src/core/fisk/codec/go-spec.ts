/**
 * The Go structs behind each message, as data: field order is declaration order (embedded header
 * first), and each rule says when Go leaves the field out. `always` fields are written even when
 * absent here, with Go's zero value, because a Go struct always holds one.
 */

export type Rule =
  | { readonly t: "string" | "bool" | "int"; readonly always?: boolean }
  /** A *bool or *string: absent only when nil, so `false` and `""` are sent. */
  | { readonly t: "pointer" }
  | { readonly t: "time" }
  | { readonly t: "strings" }
  /** A *Struct (absent when nil) or, with `always`, a struct value. */
  | { readonly t: "struct"; readonly spec: Spec; readonly always?: boolean }
  /** A struct under `omitzero`: absent when every field is unset. */
  | { readonly t: "omitzero"; readonly spec: Spec }
  | { readonly t: "list"; readonly spec: Spec }
  /** A map or json.RawMessage holding JSON: keys sorted, absent when nil. */
  | { readonly t: "map" };

export type Spec = readonly (readonly [string, Rule])[];

const str: Rule = { t: "string" };
const strAlways: Rule = { t: "string", always: true };
const bool: Rule = { t: "bool" };
const int: Rule = { t: "int" };
const map: Rule = { t: "map" };
const strings: Rule = { t: "strings" };

const IDENTITY: Spec = [
  ["name", strAlways],
  ["instance", str],
];

const HEADER_GEN1: Spec = [
  ["protocol", strAlways],
  ["id", strAlways],
  ["request", strAlways],
  ["conversation", strAlways],
  ["parent", str],
  ["sequence", { t: "int", always: true }],
  ["time", { t: "time" }],
  ["sender", { t: "struct", spec: IDENTITY, always: true }],
  ["recipient", { t: "struct", spec: IDENTITY }],
  ["must_understand", bool],
];
const HEADER: Spec = [...HEADER_GEN1, ["traceparent", str]];

const USAGE: Spec = ["input_tokens", "output_tokens", "cache_read_tokens", "cache_create_tokens", "thinking_tokens", "llm_calls", "tool_calls"].map(
  (k) => [k, int] as const,
);
const USAGE_GEN1: Spec = USAGE.slice(0, 2);
const EXEC: Spec = [
  ["command", str],
  ["exit_code", int],
  ["truncated", bool],
];
const BUDGET: Spec = [
  ["max_tokens", int],
  ["max_iterations", int],
  ["call_timeout", str],
];
const BEHAVIOR: Spec = ["read_only", "destructive", "idempotent", "open_world"].map((k) => [k, { t: "pointer" }] as const);
const TOOL_DESCRIPTOR: Spec = [
  ["name", strAlways],
  ["description", str],
  ["input_schema", map],
  ["behavior", { t: "omitzero", spec: BEHAVIOR }],
];
const ANSWER: Spec = [
  ["tool_use_id", strAlways],
  ["kind", strAlways],
  ["answer", strAlways],
  ["choice", str],
  ["confirmed", bool],
  ["value", str],
];
const TOOL_RESULT: Spec = [
  ["is_error", bool],
  ["output", str],
  ["exec", { t: "struct", spec: EXEC }],
];

/** Gen 2 blocks by event kind. Only Gen 1's map-marshalled blocks sort their keys. */
export const BLOCK_SPECS: Readonly<Record<string, Spec>> = {
  thinking: [
    ["text", strAlways],
    ["signature", str],
    ["provider", str],
  ],
  text: [
    ["text", strAlways],
    ["final", bool],
  ],
  tool_call: [
    ["id", strAlways],
    ["name", strAlways],
    ["input", map],
  ],
  tool_result: [["call_id", strAlways], ...TOOL_RESULT],
  agent_call: [
    ["id", strAlways],
    ["name", strAlways],
    ["task", strAlways],
  ],
  status: [
    ["iteration", int],
    ["phase", str],
    ["usage", { t: "struct", spec: USAGE }],
    ["count", int],
    ["truncated", bool],
  ],
  warning: [
    ["kind", strAlways],
    ["name", str],
    ["count", int],
    ["params", strings],
    ["error", str],
  ],
  prompt: [["text", strAlways]],
};

/** Gen 1 block fields by `type`, before the keys are sorted and `type` added. */
export const GEN1_BLOCK_SPECS: Readonly<Record<string, Spec>> = {
  thinking: BLOCK_SPECS.thinking!,
  text: [["text", strAlways]],
  tool_call: BLOCK_SPECS.tool_call!,
  tool_result: BLOCK_SPECS.tool_result!,
  agent_call: BLOCK_SPECS.agent_call!,
  status: [
    ["iteration", int],
    ["phase", str],
    ["usage", { t: "struct", spec: USAGE_GEN1 }],
  ],
};

const REQUEST: Spec = [
  ["prompt", str],
  ["context", str],
  ["tool_hints", strings],
  ["budget", { t: "struct", spec: BUDGET }],
  ["stream", { t: "pointer" }],
  ["conversation_token", str],
  ["answer", { t: "struct", spec: ANSWER }],
  ["replay", int],
  ["force", bool],
];

const ELICIT_QUESTION: Spec = [
  ["question_id", strAlways],
  ["tool_use_id", str],
  ["question", str],
  ["command", str],
  ["display", str],
  ["tag", str],
  ["options", strings],
  ["default", str],
  ["wait_ms", int],
];

const questionId: readonly [string, Rule] = ["question_id", strAlways];

/** Body fields (after the header) by kind, as `routeProtocol` names kinds. */
export const BODY_SPECS: Readonly<Record<string, Spec>> = {
  "discovery.request": [],
  "discovery.reply": [
    ["name", strAlways],
    ["version", strAlways],
    ["description", str],
    ["protocols", strings],
    ["tools", { t: "list", spec: TOOL_DESCRIPTOR }],
    ["model", str],
    ["telemetry", bool],
    ["telemetry_content", bool],
  ],
  "tool.request": [
    ["name", strAlways],
    ["input", map],
  ],
  "tool.reply": [...TOOL_RESULT, ["code", str]],
  ack: [
    ["accepted", { t: "bool", always: true }],
    ["reason", str],
    ["conversation_token", str],
    ["max_tokens", int],
  ],
  result: [
    ["stop_reason", strAlways],
    ["text", str],
    ["usage", { t: "struct", spec: USAGE }],
    ["trace_id", str],
    ["content_exported", bool],
  ],
  error: [
    ["stop_reason", str],
    ["error", strAlways],
    ["code", str],
    ["usage", { t: "struct", spec: USAGE }],
    ["trace_id", str],
    ["content_exported", bool],
  ],
  cancel: [["reason", str]],
  "request.prompt": REQUEST,
  "request.answer": REQUEST,
  "request.resume": REQUEST,
  "request.read": REQUEST,
  "elicit.request.approve": ELICIT_QUESTION,
  "elicit.request.confirm": ELICIT_QUESTION,
  "elicit.request.select": ELICIT_QUESTION,
  "elicit.request.input": ELICIT_QUESTION,
  // A reply writes only the field its id names, through a pointer, so zero values are sent.
  "elicit.reply.approve": [questionId, ["choice", strAlways]],
  "elicit.reply.confirm": [questionId, ["confirmed", { t: "bool", always: true }]],
  "elicit.reply.select": [questionId, ["index", { t: "int", always: true }]],
  "elicit.reply.input": [questionId, ["value", strAlways]],
  "elicit.reply.no_operator": [questionId],
  "elicit.waiting": [questionId],
  request: [
    ["prompt", strAlways],
    ["context", str],
    ["tool_hints", strings],
    ["budget", { t: "struct", spec: BUDGET }],
    ["stream", { t: "pointer" }],
  ],
};

export function headerSpec(gen1: boolean): Spec {
  return gen1 ? HEADER_GEN1 : HEADER;
}
