/**
 * Structured diffs a UI and a CLI both render: tool lists, agent cards, run reports and wire
 * captures. Every change names its place by JSON pointer and carries its own words.
 */
export { ChangeSink, DIFF_MAX_CHANGES, DIFF_MAX_DEPTH, diffJson, DiffInputError } from "./diff-json.ts";
export type { ChangeKind, DiffChange, JsonDiffRules } from "./diff-json.ts";
export { diffSchemas } from "./diff-schema.ts";
export type { SchemaDiffOptions } from "./diff-schema.ts";
export { diffToolLists, toolListsEqual } from "./diff-tools.ts";
export type { ToolChange, ToolDiffOptions, ToolListDiff, ToolSummary } from "./diff-tools.ts";
export { cardsEqual, diffAgentCards } from "./diff-cards.ts";
export type { CardDiff, CardDiffOptions, SkillChange, SkillSummary } from "./diff-cards.ts";
export { diffRuns } from "./diff-runs.ts";
export type { AssertionChange, RunDiff, StepChangeKind, StepDiff } from "./diff-runs.ts";
export { diffCaptures, VOLATILE_KEYS } from "./diff-captures.ts";
export type { CaptureDiff, CaptureDiffOptions, ExchangeDiff, ExchangeRef } from "./diff-captures.ts";
export { DIFF_INPUT_MAX_CHARS, DIFF_KIND_WORDS, detectDiffKind, diffByKind, diffIsEmpty, pairDiffKinds, parseDiffInput, readDiffInput, undetectedMessage } from "./diff-kind.ts";
export type { DiffInput, DiffKind, DiffOptions, DiffOutcome } from "./diff-kind.ts";
