import { existsSync } from "node:fs";
import { join } from "node:path";
import { buildRoot, CHROMIUM } from "./app-info.ts";

/** Fails loudly, before any worker starts a backend, when a prerequisite is missing. */
export default function globalSetup(): void {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install chromium`);
  const root = buildRoot();
  if (!existsSync(join(root, "dist/server/cli.js")) || !existsSync(join(root, "dist/client/index.html"))) {
    throw new Error("The app is not built: run `npm run build` (npm test does this) before the e2e suite");
  }
}
