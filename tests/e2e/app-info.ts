import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../..");
/** Real Chromium from Debian; browsers are never downloaded. */
export const CHROMIUM = process.env["PATCHBAY_CHROMIUM"] ?? "/usr/bin/chromium";
export const APP_INFO_ENV = "PATCHBAY_E2E_APP";

export interface AppInfo {
  /** The URL the backend printed, token included. */
  readonly url: string;
  readonly origin: string;
  readonly token: string;
}

export function readAppInfo(): AppInfo {
  const raw = process.env[APP_INFO_ENV];
  if (!raw) throw new Error(`${APP_INFO_ENV} is not set: run the specs through tests/e2e/playwright.config.ts`);
  return JSON.parse(raw) as AppInfo;
}
