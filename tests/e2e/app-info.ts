import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../..");
/** Real Chromium from Debian; browsers are never downloaded. */
export const CHROMIUM = process.env["PATCHBAY_CHROMIUM"] ?? "/usr/bin/chromium";

/**
 * The folder holding the package.json, node_modules and dist/ under test: this checkout, or the
 * one PATCHBAY_E2E_BUILD names, so parallel developers can each test their own build.
 */
export function buildRoot(): string {
  return process.env["PATCHBAY_E2E_BUILD"] ?? ROOT;
}

export interface AppInfo {
  /** The URL the backend printed, token included. */
  readonly url: string;
  readonly origin: string;
  readonly token: string;
}
