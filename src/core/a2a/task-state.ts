/**
 * Task states across dialects, read into one vocabulary: v0.x kebab-case names, v1.0 ProtoJSON
 * `TASK_STATE_*` (and their integers), v0.3 gRPC's double-L CANCELLED, and the camelCase names
 * OpenFang sends. The raw spelling is always kept beside the reading, for the evidence.
 */

export const TASK_STATES = ["submitted", "working", "input-required", "auth-required", "completed", "canceled", "failed", "rejected", "unknown"] as const;
export type TaskState = (typeof TASK_STATES)[number];

/** No more events follow, and the task accepts no more messages. */
export const TERMINAL_STATES: ReadonlySet<TaskState> = new Set(["completed", "canceled", "failed", "rejected"]);
/** The agent waits for the client: a v1.0 stream ends here too. */
export const INTERRUPTED_STATES: ReadonlySet<TaskState> = new Set(["input-required", "auth-required"]);

export interface StateReading {
  readonly state: TaskState;
  /** The spelling on the wire. */
  readonly raw: string;
  /** Set when the spelling is not the one the dialects define (OpenFang's `inputRequired`, say). */
  readonly nonStandard?: string;
}

const PROTO_INTS: readonly TaskState[] = ["unknown", "submitted", "working", "completed", "failed", "canceled", "input-required", "rejected", "auth-required"];

type Spelling = { readonly state: TaskState; readonly nonStandard?: string };

const SPELLINGS: ReadonlyMap<string, Spelling> = new Map<string, Spelling>([
  ...TASK_STATES.map((s): [string, Spelling] => [s, { state: s }]),
  ...TASK_STATES.filter((s) => s !== "unknown").map((s): [string, Spelling] => [`TASK_STATE_${s.toUpperCase().replace("-", "_")}`, { state: s }]),
  ["TASK_STATE_UNSPECIFIED", { state: "unknown" }],
  ["TASK_STATE_CANCELLED", { state: "canceled" }],
  ["inputRequired", { state: "input-required", nonStandard: "camelCase state name; the dialects spell it input-required" }],
  ["authRequired", { state: "auth-required", nonStandard: "camelCase state name; the dialects spell it auth-required" }],
  ["cancelled", { state: "canceled", nonStandard: "British spelling; the dialects spell it canceled" }],
]);

/** The state a raw value names, or undefined when it names none. */
export function readState(raw: unknown): StateReading | undefined {
  if (typeof raw === "number" && Number.isInteger(raw)) {
    const state = PROTO_INTS[raw];
    return state ? { state, raw: String(raw) } : undefined;
  }
  if (typeof raw !== "string") return undefined;
  const found = SPELLINGS.get(raw);
  if (!found) return undefined;
  return found.nonStandard ? { state: found.state, raw, nonStandard: found.nonStandard } : { state: found.state, raw };
}

export const isTerminal = (state: TaskState): boolean => TERMINAL_STATES.has(state);
export const isInterrupted = (state: TaskState): boolean => INTERRUPTED_STATES.has(state);
