/**
 * MCP's two protocol eras: legacy (2024-11-05 … 2025-11-25, opened by `initialize`) and modern
 * (2026-07-28: stateless, opened by `server/discover`), the per-server era setting, and the
 * plain-words account of why a connection landed on the era it did.
 */
import { isJsonObject } from "../json/index.ts";

/** What a saved server asks for: one era, or a probe that picks one. */
export type EraSetting = "legacy" | "modern" | "auto";
export type ProtocolEra = "legacy" | "modern";

export const ERA_SETTINGS: readonly EraSetting[] = ["auto", "legacy", "modern"];
export const MODERN_VERSION = "2026-07-28";
/** The versions `initialize` can ask for, newest first. */
export const LEGACY_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;
export const NEWEST_LEGACY_VERSION = LEGACY_VERSIONS[0];

/** Versions are ISO dates, so they order as strings. */
export function eraOfVersion(version: string): ProtocolEra {
  return version >= MODERN_VERSION ? "modern" : "legacy";
}

export function isEraSetting(value: unknown): value is EraSetting {
  return value === "legacy" || value === "modern" || value === "auto";
}

/** What came back to the `server/discover` probe, as far as it explains the era. */
export type ProbeAnswer =
  | { readonly kind: "result"; readonly result: unknown }
  | { readonly kind: "error"; readonly code: number; readonly message: string; readonly status?: number }
  | { readonly kind: "no-answer" };

/** The era a connection landed on and why, in words the page shows beside the server. */
export interface EraChoice {
  readonly era: ProtocolEra;
  readonly setting: EraSetting;
  readonly reason: string;
}

function versionsOf(result: unknown): string[] | undefined {
  if (!isJsonObject(result) || !Array.isArray(result.supportedVersions)) return undefined;
  return result.supportedVersions.filter((v): v is string => typeof v === "string");
}

/** What the probe answer says, e.g. `answered with 2026-07-28` or `answered -32601 (Method not found)`. */
export function describeProbeAnswer(answer: ProbeAnswer | undefined): string {
  if (answer === undefined || answer.kind === "no-answer") return "got no answer";
  if (answer.kind === "error") {
    const http = answer.status !== undefined ? `HTTP ${answer.status}, ` : "";
    return `answered ${http}${answer.code} (${answer.message.length > 120 ? `${answer.message.slice(0, 120)}…` : answer.message})`;
  }
  const versions = versionsOf(answer.result);
  if (versions === undefined) return "answered with a result that is not a DiscoverResult (no supportedVersions)";
  if (versions.length === 0) return "answered with an empty supportedVersions list";
  return `answered with ${versions.join(", ")}`;
}

/**
 * Why the connection is in `era`: the setting itself for a pinned era, else what `server/discover`
 * answered (or that it was not answered).
 */
export function eraReason(setting: EraSetting, era: ProtocolEra, answer: ProbeAnswer | undefined): string {
  if (setting === "legacy") return "legacy: chosen for this server (initialize, no server/discover probe)";
  const probe = `server/discover ${describeProbeAnswer(answer)}`;
  if (setting === "modern") return `modern: chosen for this server; ${probe}`;
  return `${era}: ${probe}`;
}
