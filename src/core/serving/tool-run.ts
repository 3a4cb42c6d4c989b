import type { CappedOutput } from "./toolkit/output-cap.ts";

/** Progress a long tool reports while it runs. */
export interface ToolProgress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/**
 * How a tool call ended, before any protocol shapes it. A command that ran is `ran` whatever its
 * exit code; an in-process tool gives `text`; `harness-error` means the tool did not run cleanly.
 */
export type ToolRun =
  | { readonly kind: "ran"; readonly commandLine: string; readonly exitCode: number | null; readonly signal: string | null; readonly output: CappedOutput }
  | { readonly kind: "text"; readonly text: string; readonly structured?: Readonly<Record<string, unknown>> }
  | { readonly kind: "harness-error"; readonly reason: "arguments" | "start" | "timeout" | "cancelled" | "failed"; readonly message: string };
