import { spawn } from "node:child_process";
import { OutputCollector } from "../toolkit/output-cap.ts";
import { type CommandRunner, commandLine, type RunOutcome } from "../run-types.ts";

/** The only variables a command inherits from Patchbay's environment; tokens and keys stay behind. */
const INHERITED = ["PATH", "HOME", "LANG", "LC_ALL", "TZ", "TMPDIR", "USER", "SYSTEMROOT"];
const KILL_GRACE_MS = 2_000;

export function scrubbedEnv(parent: NodeJS.ProcessEnv, extra: Readonly<Record<string, string>>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of INHERITED) {
    const value = parent[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...extra };
}

/**
 * Runs an argv without a shell, stdout and stderr combined into one capped output. A time limit
 * or an abort ends the whole process group (SIGTERM, then SIGKILL after a grace period).
 */
export function nodeCommandRunner(parentEnv: NodeJS.ProcessEnv = process.env): CommandRunner {
  return (request) =>
    new Promise<RunOutcome>((resolve) => {
      const line = commandLine(request.argv);
      const [program, ...args] = request.argv;
      if (program === undefined) return resolve({ kind: "harness-error", reason: "start", commandLine: line, message: "no program to run" });
      if (request.signal?.aborted) return resolve({ kind: "harness-error", reason: "cancelled", commandLine: line, message: "the call was cancelled before it started" });
      const started = performance.now();
      const output = new OutputCollector();
      let ended: "timeout" | "cancelled" | undefined;
      let settled = false;
      const child = spawn(program, args, {
        cwd: request.cwd,
        env: scrubbedEnv(parentEnv, request.env),
        stdio: ["ignore", "pipe", "pipe"],
        shell: false,
        detached: process.platform !== "win32",
      });
      const stop = (why: "timeout" | "cancelled") => {
        if (ended || settled) return;
        ended = why;
        signalGroup(child.pid, "SIGTERM");
        setTimeout(() => signalGroup(child.pid, "SIGKILL"), KILL_GRACE_MS).unref();
        // A process that left the group can hold the pipes open; the call still ends.
        setTimeout(() => child.emit("close", null, "SIGKILL"), KILL_GRACE_MS * 2).unref();
      };
      const timer = setTimeout(() => stop("timeout"), request.timeoutMs);
      const onAbort = () => stop("cancelled");
      request.signal?.addEventListener("abort", onAbort, { once: true });
      const finish = (outcome: RunOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        request.signal?.removeEventListener("abort", onAbort);
        resolve(outcome);
      };
      child.stdout.on("data", (chunk: Buffer) => output.push(chunk));
      child.stderr.on("data", (chunk: Buffer) => output.push(chunk));
      child.on("error", (error) => finish({ kind: "harness-error", reason: "start", commandLine: line, message: `could not start ${program}: ${error.message}` }));
      child.on("close", (code, signal) => {
        if (ended === "timeout") {
          return finish({ kind: "harness-error", reason: "timeout", commandLine: line, message: `${line} did not finish within ${request.timeoutMs} ms and was stopped` });
        }
        if (ended === "cancelled") return finish({ kind: "harness-error", reason: "cancelled", commandLine: line, message: `${line} was cancelled and stopped` });
        finish({ kind: "ran", commandLine: line, exitCode: code, signal, output: output.finish(), durationMs: performance.now() - started });
      });
    });
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(process.platform === "win32" ? pid : -pid, signal);
  } catch {
    // Already gone.
  }
}
