import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitForLaunchUrl } from "../helpers/launch-url.ts";
import { buildRoot, ROOT, type AppInfo } from "./app-info.ts";

/** A running backend and how to stop it. */
export interface RunningBackend {
  readonly info: AppInfo;
  stop(): Promise<void>;
}

/**
 * Starts the built backend exactly as `patchbay start` runs it (with its own managed nats-server
 * and its own workspace), so each Playwright worker has a backend no other worker's specs touch.
 */
export async function startBackend(): Promise<RunningBackend> {
  const workspace = mkdtempSync(join(tmpdir(), "patchbay-e2e-ws-"));
  const child = spawn(process.execPath, [join(buildRoot(), "dist/server/cli.js"), "start", "--port", "0", "--workspace", workspace], {
    cwd: ROOT,
    env: { ...process.env, NATS_URL: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stop = async (): Promise<void> => {
    const running = child.exitCode === null && child.signalCode === null;
    if (running) child.kill("SIGINT");
    await new Promise<void>((resolve) => {
      if (!running) return resolve();
      const t = setTimeout(() => {
        child.kill("SIGKILL");
        resolve();
      }, 5000);
      child.once("exit", () => {
        clearTimeout(t);
        resolve();
      });
    });
    rmSync(workspace, { recursive: true, force: true });
  };
  let url: URL;
  try {
    url = await waitForLaunchUrl(child, 20_000);
  } catch (error) {
    // A backend that never printed its URL is not left running, nor its workspace behind.
    await stop();
    throw error;
  }
  return { info: { url: url.href, origin: url.origin, token: url.searchParams.get("token") ?? "" }, stop };
}
