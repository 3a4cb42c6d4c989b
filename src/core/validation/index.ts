export { topLevelElements } from "./array-split.ts";
export { MAX_MESSAGE_CHARS, splitInput, splitItems } from "./batch-input.ts";
export type { BatchItem, InputFormat, SplitInput } from "./batch-input.ts";
export { RECOGNITION_FLOOR, SCORE_MARGIN, ValidationEngine, ValidationSession } from "./engine.ts";
export { locateIssues } from "./locate-issues.ts";
export { ParsedAhead } from "./parsed-ahead.ts";
export { jsonRpcRules, jsonRpcShape } from "./json-rpc.ts";
export type { JsonRpcShape } from "./json-rpc.ts";
export {
  buildReport,
  emptyStatusCounts,
  filePosition,
  firstIssue,
  isFailure,
  itemPlace,
  judgedBy,
  judgedText,
  REPORT_FORMAT,
  REPORT_VERSION,
  summarise,
  validateItem,
  verdictLine,
} from "./report.ts";
export type { BatchSummary, JudgedBy, ReportEntry, ReportInput, ValidationReport } from "./report.ts";
export { editDistance, isAllowedMethod, nearestNames } from "./near-miss.ts";
export { sseData } from "./sse-data.ts";
export * from "./types.ts";
