import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitForLaunchUrl } from "../helpers/launch-url.ts";
import { buildRoot, ROOT, type AppInfo } from "./app-info.ts";

/** A running backend, its process (a spec may kill it to play a crash), and how to stop it. */
export interface RunningBackend {
  readonly info: AppInfo;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

export interface LaunchOptions {
  /** A port of the caller's choosing (a relaunch on the same one); the kernel picks when absent. */
  readonly port?: number;
  /** Whether the backend manages its own nats-server, as `patchbay start` does by default. */
  readonly nats?: boolean;
  /** A workspace the caller owns and removes (one shared by several launches); a fresh one, removed on stop, when absent. */
  readonly workspace?: string;
}

/**
 * Starts the built backend exactly as `patchbay start` runs it (by default with its own managed
 * nats-server and its own workspace), so each Playwright worker has a backend no other worker's
 * specs touch.
 */
export async function startBackend(options: LaunchOptions = {}): Promise<RunningBackend> {
  const owned = options.workspace === undefined;
  const workspace = options.workspace ?? mkdtempSync(join(tmpdir(), "patchbay-e2e-ws-"));
  const args = [join(buildRoot(), "dist/server/cli.js"), "start", "--port", String(options.port ?? 0), "--workspace", workspace];
  if (options.nats === false) args.push("--no-nats");
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, NATS_URL: "" }, stdio: ["ignore", "pipe", "pipe"] });
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
    if (owned) rmSync(workspace, { recursive: true, force: true });
  };
  let url: URL;
  try {
    url = await waitForLaunchUrl(child, 20_000);
  } catch (error) {
    // A backend that never printed its URL is not left running, nor its workspace behind.
    await stop();
    throw error;
  }
  return { info: { url: url.href, origin: url.origin, token: url.searchParams.get("token") ?? "" }, child, stop };
}
