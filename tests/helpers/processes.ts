import { createServer } from "node:net";
import { afterEach } from "vitest";
import { runCli, type CliRun } from "./http-client.ts";

/** Whether a process with this pid still exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether nothing listens on this loopback port: a probe can bind it, and is closed again at once. */
export function portFree(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen({ host, port }, () => probe.close(() => resolve(true)));
  });
}

/**
 * `runCli` for a test file whose runs are all stopped after each test, so a failing assertion
 * never leaves a backend (and its nats-server) running. Call once at the top of the file.
 */
export function trackedCli(): typeof runCli {
  const running: CliRun[] = [];
  afterEach(async () => {
    for (const cli of running.splice(0)) {
      cli.stop();
      await cli.done;
    }
  });
  return (...args) => {
    const cli = runCli(...args);
    running.push(cli);
    return cli;
  };
}
