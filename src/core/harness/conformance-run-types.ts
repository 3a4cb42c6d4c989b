/** A conformance run as the backend reports it (GET /api/conformance/runs/:id), shared by the backend and the page. */
import type { McpConformanceResult } from "./conformance-output.ts";
import type { ConformanceKind } from "./conformance-target.ts";
import type { TckResult } from "./tck-junit.ts";

export type ConformanceState = "running" | "done" | "stopped" | "failed";
export type TckScope = "mandatory" | "all";
/** The MCP suite's requirement sets: what conformance to each protocol revision requires. */
export type McpRequirements = "2026-07-28" | "2025-11-25";
export const MCP_REQUIREMENTS: readonly McpRequirements[] = ["2026-07-28", "2025-11-25"];

export interface ConformanceProblem {
  /** Stable: conformance_missing, node22_unavailable, tck_missing, python_missing, suite_incomplete, timeout, … */
  readonly code: string;
  readonly message: string;
}

export interface TckRunResult {
  readonly scope: TckScope;
  /** The JSON-RPC endpoint the TCK tested, as its runner reported it. */
  readonly endpoint: string | null;
  readonly result: TckResult;
}

export interface ConformanceRunView {
  readonly id: string;
  readonly kind: ConformanceKind;
  /** The URL as given (normalised). */
  readonly url: string;
  /** What the tool was pointed at: the URL, or for the TCK a card's base URL. */
  readonly target: string;
  readonly scope: TckScope | null;
  /** MCP: the requirement set run. */
  readonly requirements: McpRequirements | null;
  readonly state: ConformanceState;
  readonly startedAt: string;
  readonly finishedAt: string | null;
  readonly exitCode: number | null;
  /** The last part of the tool's output (stdout and stderr as they came). */
  readonly output: string;
  /** Characters of output before `output` that are no longer kept. */
  readonly outputDropped: number;
  /** MCP only: scenarios begun, and how many the suite said it would run. */
  readonly progress: { readonly started: number; readonly planned: number | null } | null;
  /** Why the run ended without results (or was cut short). */
  readonly problem: ConformanceProblem | null;
  readonly mcp: McpConformanceResult | null;
  readonly a2a: TckRunResult | null;
  /** Every scenario (MCP) or test in the set (A2A) passed; null until the run is done. */
  readonly passed: boolean | null;
}

export interface ConformanceRunSummary {
  readonly id: string;
  readonly kind: ConformanceKind;
  readonly url: string;
  readonly state: ConformanceState;
  readonly passed: boolean | null;
}
