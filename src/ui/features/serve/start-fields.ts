import type { McpBridgeInput } from "../../../core/backend/serve-api.ts";
import type { ReadToolkitResult, Toolkit } from "../../../core/serving/index.ts";

/** The editor's toolkit as a start body, or why it cannot be served yet. */
export function toolkitForStart(kit: { readonly text: string; readonly toolkit: Toolkit | undefined; readonly result: ReadToolkitResult }): { readonly body: unknown } | { readonly problem: string } {
  const errors = kit.result.issues.filter((i) => i.severity === "error");
  if (errors.length > 0 || !kit.toolkit) {
    const first = errors[0];
    const where = first ? ` The first: ${first.pointer || "/"}: ${first.message}.` : "";
    const count = errors.length === 1 ? "an error" : `${errors.length || "some"} errors`;
    return { problem: `Not started: the toolkit in the editor has ${count}; fix ${errors.length === 1 ? "it" : "them"} first.${where}` };
  }
  try {
    return { body: JSON.parse(kit.text) as unknown };
  } catch (err) {
    return { problem: `Not started: the toolkit text is not JSON (${(err as Error).message}).` };
  }
}

/**
 * A whole-number form field: empty gives undefined (the backend's default), anything else must be
 * a whole number in range.
 */
export function wholeField(text: string, label: string, min: number, max: number): { readonly value?: number; readonly problem?: string } {
  const t = text.trim();
  if (t === "") return {};
  if (!/^\d{1,10}$/.test(t) || Number(t) < min || Number(t) > max) return { problem: `${label} must be a whole number from ${min} to ${max}, not "${t}".` };
  return { value: Number(t) };
}

/** An error from the backend as a sentence: what failed, then the backend's own words. */
export function failure(action: string, err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const text = `${action}: ${message}`;
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

const IDENTITY = /^[A-Za-z0-9_-]+$/;

/**
 * The bridge fields: identities separated by commas or spaces, and at most one include and one
 * exclude pattern (the backend checks the patterns as fisk-ai compiles them).
 */
export function bridgeFields(identities: string, include: string, exclude: string): { readonly value?: McpBridgeInput; readonly problem?: string } {
  const names = identities.split(/[\s,]+/).filter((n) => n !== "");
  if (names.length === 0) return { problem: "name at least one fisk-ai agent identity to bridge, or turn bridging off." };
  const bad = names.find((n) => !IDENTITY.test(n));
  if (bad !== undefined) return { problem: `"${bad}" is not a fisk-ai agent identity: letters, digits, '-' and '_' only.` };
  const one = (p: string) => (p.trim() === "" ? [] : [p.trim()]);
  return { value: { identities: names, ...(one(include).length ? { include: one(include) } : {}), ...(one(exclude).length ? { exclude: one(exclude) } : {}) } };
}
