/** Types for scripts/mcp-conformance.mjs, so its tests can import it. */

export declare const REQUIREMENT_SETS: readonly string[];

export interface ScenarioLine {
  readonly name: string;
  readonly ok: boolean;
  readonly passed: number;
  readonly failed: number;
}

export interface RunSummary {
  /** How many scenarios the suite said it would run, when it said. */
  readonly planned: number | null;
  readonly scenarios: readonly ScenarioLine[];
  /** The checks, from the `Total:` line; null when the run ended before it. */
  readonly total: { readonly passed: number; readonly failed: number } | null;
  /** The scenarios that failed. */
  readonly failing: readonly string[];
}

export declare function readSummary(output: string): RunSummary;
export declare function runBroken(summary: RunSummary): boolean;
