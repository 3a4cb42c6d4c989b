import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../..");
/** Real Chromium from Debian; browsers are never downloaded. */
export const CHROMIUM = process.env["PATCHBAY_CHROMIUM"] ?? "/usr/bin/chromium";
export const APP_INFO_FILE = join(ROOT, ".reports/e2e-app.json");

export interface AppInfo {
  /** The URL the backend printed, token included. */
  readonly url: string;
  readonly origin: string;
  readonly token: string;
}

export function readAppInfo(): AppInfo {
  return JSON.parse(readFileSync(APP_INFO_FILE, "utf8")) as AppInfo;
}
