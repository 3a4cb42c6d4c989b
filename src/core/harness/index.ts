/** The test harness: collections, their file codec, `{{name}}` references, assertions and the runner. */
export type {
  A2aAction,
  A2aTargetSpec,
  Assertion,
  AssertionKind,
  Collection,
  CountSpec,
  HarnessProtocol,
  McpAction,
  McpTargetSpec,
  NatsAction,
  NatsRequestAction,
  NatsTargetSpec,
  NatsTaskAction,
  NatsToolAction,
  OutcomeKind,
  SecretSpec,
  Step,
  StepAction,
  StepOutcome,
  TargetSpec,
} from "./collection-types.ts";
export type {
  AssertionResult,
  ExecutorContext,
  Executors,
  FrameValidity,
  ResolvedStep,
  RunEvent,
  RunOptions,
  RunReport,
  RunTotals,
  StepExecutor,
  StepFrame,
  StepObservation,
  StepReport,
  StepStatus,
} from "./run-types.ts";
export {
  canonicalCollection,
  COLLECTION_LIMITS,
  decodeCollectionFile,
  describeProblems,
  encodeCollectionFile,
  parseCollection,
} from "./collection-codec.ts";
export type { CollectionProblem, ParseCollectionResult } from "./collection-codec.ts";
export { ASSERTION_KINDS, OUTCOME_KINDS } from "./collection-fields.ts";
export {
  DEFAULT_STEP_TIMEOUT_MS,
  IDENTIFIER,
  MIN_SCRUBBED_LENGTH,
  referencesIn,
  referencesOf,
  resolveStep,
  scrubSecrets,
} from "./variables.ts";
export type { ResolveResult, StepReferences, VariableScope } from "./variables.ts";
export { readPointer } from "./body-pointer.ts";
export type { PointerRead } from "./body-pointer.ts";
export { evaluateAssertion, SHOWN_CHARS } from "./assertions.ts";
export { runCollection, STOP_GRACE_MS } from "./runner.ts";
export { DEFAULT_FRAME_TEXT_LIMIT } from "./run-frames.ts";
export { appendStep, DEFAULT_ASSERTIONS, emptyCollection, uniqueName } from "./save-step.ts";
export type { StepDraft } from "./save-step.ts";
export { junitXml } from "./junit.ts";
export type { JunitOptions } from "./junit.ts";
