/**
 * The launch URL `patchbay start` prints once it serves. Free of vitest so Playwright's global
 * setup can use it too.
 */
import type { ChildProcess } from "node:child_process";

/** The whole line, newline included, so a URL split across output chunks is never read half-way. */
const LAUNCH_LINE = /Patchbay is running at (\S+)\r?\n/;

/** The launch URL in `output`, if the line has been printed yet. */
export function launchUrlIn(output: string): URL | undefined {
  const url = LAUNCH_LINE.exec(output)?.[1];
  return url === undefined ? undefined : new URL(url);
}

/**
 * Resolves with the launch URL a spawned CLI prints on stdout; rejects with its output if it
 * exits first or stays silent for `timeoutMs`. Call it right after `spawn`, before any output.
 */
export function waitForLaunchUrl(child: ChildProcess, timeoutMs: number): Promise<URL> {
  const { stdout, stderr } = child;
  if (!stdout) return Promise.reject(new Error("waitForLaunchUrl needs the child's stdout piped"));
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    const onOut = (d: Buffer) => {
      out += d.toString();
      const url = launchUrlIn(out);
      if (url) finish(() => resolve(url));
    };
    const onErr = (d: Buffer) => (err += d.toString());
    // "close" rather than "exit": by then every byte the child wrote has been read.
    const onClose = (code: number | null, signal: NodeJS.Signals | null) =>
      finish(() => reject(new Error(`the CLI exited (${signal ?? code}) before printing its URL\nstdout: ${out}\nstderr: ${err}`)));
    const timer = setTimeout(
      () => finish(() => reject(new Error(`the CLI did not print its URL within ${timeoutMs} ms\nstdout: ${out}\nstderr: ${err}`))),
      timeoutMs,
    );
    function finish(settle: () => void) {
      clearTimeout(timer);
      stdout?.off("data", onOut);
      stderr?.off("data", onErr);
      child.off("close", onClose);
      settle();
    }
    stdout.on("data", onOut);
    stderr?.on("data", onErr);
    child.on("close", onClose);
  });
}
