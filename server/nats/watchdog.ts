/**
 * Keeps a child from outliving us. A tiny shell process reads a pipe from this process; when
 * this process dies, however it dies (even SIGKILL, where no exit handler runs), the pipe
 * closes, the read returns and the shell sends SIGTERM to the guarded child.
 */
import { spawn } from "node:child_process";

export interface Watchdog {
  /** Stand the watchdog down (before stopping the child normally). */
  release(): void;
}

const SCRIPT = 'cat >/dev/null; kill -TERM "$1" 2>/dev/null';

/** Guard `pid`; the watchdog never keeps this process alive. */
export function guardChild(pid: number): Watchdog {
  const dog = spawn("/bin/sh", ["-c", SCRIPT, "patchbay-watchdog", String(pid)], { stdio: ["pipe", "ignore", "ignore"] });
  dog.on("error", () => {});
  dog.stdin?.on("error", () => {});
  dog.unref();
  (dog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return {
    release() {
      dog.kill("SIGKILL");
      dog.stdin?.destroy();
    },
  };
}
