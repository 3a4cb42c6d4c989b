import type { CappedOutput } from "./toolkit/output-cap.ts";

/** How running a command tool ended: it ran (any exit code), or the harness could not run it. */
export type RunOutcome =
  | {
      readonly kind: "ran";
      readonly commandLine: string;
      /** null when a signal ended it. */
      readonly exitCode: number | null;
      readonly signal: string | null;
      readonly output: CappedOutput;
      readonly durationMs: number;
    }
  | { readonly kind: "harness-error"; readonly reason: "start" | "timeout" | "cancelled"; readonly commandLine: string; readonly message: string };

export interface RunRequest {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

/** Runs a program; injected so the serving core stays free of Node. */
export type CommandRunner = (request: RunRequest) => Promise<RunOutcome>;

/** The argv as one line a person can read and paste: words with spaces or quotes are single-quoted. */
export function commandLine(argv: readonly string[]): string {
  return argv.map((a) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`)).join(" ");
}
