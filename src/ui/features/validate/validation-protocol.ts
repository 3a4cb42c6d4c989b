// The messages between the Validate workbench and its worker. Types only (plus one guard), so the
// page can import this without pulling the engine, ajv or the packs into its bundle.
import type { BatchSummary, ReportInput } from "../../../core/validation/report.ts";
import type { Family, Issue, Override, PackSource, SchemaDraft, Verdict, VerdictStatus } from "../../../core/validation/types.ts";

/** One thing to validate: pasted text, or a file the worker reads itself (no big string on the page). */
export type RunInput = { readonly name: string; readonly text: string } | { readonly name: string; readonly blob: Blob };

/** The compact per-message line the list shows; the full verdict stays in the worker. */
export interface VerdictRow {
  /** Position in the run, across every input. */
  readonly index: number;
  /** Where it came from: `capture.jsonl #3 (line 4)`. */
  readonly place: string;
  readonly status: VerdictStatus;
  readonly family?: Family;
  /** Pack label: family and version, e.g. "MCP 2025-06-18". */
  readonly pack?: string;
  /** Kind label, e.g. "tools/call request". */
  readonly kind?: string;
  /** The first problem, or why nothing matched. */
  readonly problem?: string;
  /** `line:column` of the first problem within the message's own text. */
  readonly at?: string;
}

/** A pack the user can choose to override the classifier, with its kinds and where its facts come from. */
export interface PackInfo {
  readonly id: string;
  readonly label: string;
  readonly family: Family;
  readonly draft: SchemaDraft;
  readonly sources: readonly PackSource[];
  /** Deliberate differences from upstream, each with its reason. */
  readonly notes: readonly string[];
  readonly kinds: readonly { readonly id: string; readonly label: string }[];
}

/** One message in full: its text and verdict. */
export interface MessageDetail {
  readonly index: number;
  readonly place: string;
  readonly text: string;
  readonly verdict: Verdict;
}

export interface ExportedReport {
  readonly blob: Blob;
  readonly messages: number;
  readonly generatedAtMs: number;
}

/** What each request kind answers with. */
export interface ReplyValues {
  detail: MessageDetail;
  "validate-one": Verdict;
  export: ExportedReport;
  catalog: PackInfo[];
  "check-schema": Issue[];
}

export type QueryKind = keyof ReplyValues;

export type Query =
  | { readonly type: "detail"; readonly id: number; readonly index: number; readonly override?: Override }
  /**
   * One message, in a fresh session; or, with `session`, in the session of that name, which keeps
   * what the earlier messages sent with the name taught it (a connection's listed tools, its calls).
   */
  | { readonly type: "validate-one"; readonly id: number; readonly text: string; readonly override?: Override; readonly session?: string }
  | { readonly type: "export"; readonly id: number }
  | { readonly type: "catalog"; readonly id: number }
  /** `value` against a schema from the traffic (a tool's outputSchema); `draft` applies when it names none. */
  | {
      readonly type: "check-schema";
      readonly id: number;
      readonly schema: unknown;
      readonly value: unknown;
      readonly pointer: string;
      readonly draft: SchemaDraft;
    };

export type WorkerRequest =
  | { readonly type: "run"; readonly run: number; readonly inputs: readonly RunInput[] }
  | { readonly type: "cancel"; readonly run: number }
  | Query;

export interface RunDone {
  readonly type: "done";
  readonly run: number;
  readonly cancelled: boolean;
  /** Messages validated (fewer than found when cancelled). */
  readonly done: number;
  readonly total: number;
  readonly summary: BatchSummary;
  readonly inputs: readonly ReportInput[];
  readonly elapsedMs: number;
}

export type WorkerEvent =
  /** Sent every slice of work (at most ~1000 messages or ~50 ms), with the rows made in it. */
  | { readonly type: "progress"; readonly run: number; readonly done: number; readonly total: number; readonly rows: readonly VerdictRow[] }
  | RunDone
  | { readonly type: "failed"; readonly run: number; readonly message: string }
  | { readonly type: "reply"; readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly type: "reply"; readonly id: number; readonly ok: false; readonly message: string }
  /** Something outside any request went wrong inside the worker. */
  | { readonly type: "crash"; readonly message: string };

export function isWorkerEvent(data: unknown): data is WorkerEvent {
  return typeof data === "object" && data !== null && typeof (data as { type?: unknown }).type === "string";
}
