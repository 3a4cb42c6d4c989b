import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { APP_INFO_ENV, CHROMIUM, ROOT, type AppInfo } from "./app-info.ts";

/**
 * Starts the built backend exactly as `patchbay start` runs it (with its own managed
 * nats-server) and hands its URL to the specs. Fails loudly when a prerequisite is missing.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install chromium`);
  const cli = join(ROOT, "dist/server/cli.js");
  if (!existsSync(cli) || !existsSync(join(ROOT, "dist/client/index.html"))) {
    throw new Error("The app is not built: run `npm run build` (npm test does this) before the e2e suite");
  }
  const workspace = mkdtempSync(join(tmpdir(), "patchbay-e2e-ws-"));
  const child = spawn(process.execPath, [cli, "start", "--port", "0", "--workspace", workspace], {
    cwd: ROOT,
    env: { ...process.env, NATS_URL: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const url = await waitForUrl(child);
  const info: AppInfo = { url, origin: new URL(url).origin, token: new URL(url).searchParams.get("token") ?? "" };
  // Workers inherit the environment set here, so parallel runs never share a file.
  process.env[APP_INFO_ENV] = JSON.stringify(info);
  return async () => {
    child.kill("SIGINT");
    await new Promise<void>((resolve) => {
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
}

function waitForUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    const timer = setTimeout(() => reject(new Error(`backend did not print its URL in 20 s\n${out}\n${err}`)), 20_000);
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.stderr?.on("data", (d: Buffer) => (err += d.toString()));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`backend exited with ${code} before serving\n${out}\n${err}`));
    });
  });
}
