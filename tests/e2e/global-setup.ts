import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitForLaunchUrl } from "../helpers/launch-url.ts";
import { APP_INFO_ENV, CHROMIUM, ROOT, type AppInfo } from "./app-info.ts";

/**
 * Starts the built backend exactly as `patchbay start` runs it (with its own managed
 * nats-server) and hands its URL to the specs. Fails loudly when a prerequisite is missing.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install chromium`);
  // PATCHBAY_E2E_BUILD names another folder holding package.json, node_modules and dist/, so
  // parallel developers can each test their own build.
  const buildRoot = process.env["PATCHBAY_E2E_BUILD"] ?? ROOT;
  const cli = join(buildRoot, "dist/server/cli.js");
  if (!existsSync(cli) || !existsSync(join(buildRoot, "dist/client/index.html"))) {
    throw new Error("The app is not built: run `npm run build` (npm test does this) before the e2e suite");
  }
  const workspace = mkdtempSync(join(tmpdir(), "patchbay-e2e-ws-"));
  const child = spawn(process.execPath, [cli, "start", "--port", "0", "--workspace", workspace], {
    cwd: ROOT,
    env: { ...process.env, NATS_URL: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const url = await waitForLaunchUrl(child, 20_000);
  const info: AppInfo = { url: url.href, origin: url.origin, token: url.searchParams.get("token") ?? "" };
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
