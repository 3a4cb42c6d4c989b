/** Reading an answer's JSON object, and what is wrong with it in words. */
import { isJsonObject } from "../json/index.ts";
import { header, type OAuthResponse } from "./exchange.ts";

export type Finding = { readonly level: "ok" | "warn" | "fail"; readonly text: string };

export type Checked<T> =
  | { readonly ok: true; readonly value: T; readonly notes: readonly Finding[] }
  | { readonly ok: false; readonly reason: string; readonly notes: readonly Finding[] };

/** The first characters of a text, on one line, for an error message. */
export function excerpt(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/**
 * The body as a JSON object, or why not: not JSON at all (with what it starts with and its
 * Content-Type), or JSON that is not an object. A JSON body under another Content-Type is
 * read, with a warning.
 */
export function jsonObjectOf(response: OAuthResponse, what: string): Checked<Record<string, unknown>> {
  const type = (header(response, "content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const notes: Finding[] = [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.body);
  } catch {
    const shown = response.body.trim() === "" ? "the body is empty" : `it starts with ${JSON.stringify(excerpt(response.body, 80))}`;
    return { ok: false, reason: `the ${what} is not JSON (Content-Type ${type || "missing"}; ${shown})`, notes };
  }
  if (!isJsonObject(parsed)) return { ok: false, reason: `the ${what} is JSON but not an object`, notes };
  if (type !== "application/json" && !type.endsWith("+json")) notes.push({ level: "warn", text: `the ${what} is JSON but sent as Content-Type ${type || "(none)"}` });
  return { ok: true, value: parsed, notes };
}

/** A list of strings from a member, or why not; undefined when absent. */
export function stringList(doc: Record<string, unknown>, name: string): { list?: string[]; problem?: string } {
  const v = doc[name];
  if (v === undefined) return {};
  if (!Array.isArray(v) || !v.every((s) => typeof s === "string")) return { problem: `${name} must be an array of strings` };
  return { list: v as string[] };
}

/** An OAuth error body (`error`, `error_description`) in words, when the answer is one. */
export function oauthErrorOf(response: OAuthResponse): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.body);
  } catch {
    return undefined;
  }
  if (!isJsonObject(parsed) || typeof parsed.error !== "string") return undefined;
  const description = typeof parsed.error_description === "string" ? ` (${excerpt(parsed.error_description, 200)})` : "";
  return `${parsed.error}${description}`;
}

/** An error status with whatever the body says: the OAuth error, else the start of the body. */
export function statusProblem(response: OAuthResponse): string {
  const error = oauthErrorOf(response);
  if (error !== undefined) return `HTTP ${response.status} ${error}`;
  return `HTTP ${response.status}${response.body.trim() !== "" ? `: ${excerpt(response.body)}` : ""}`;
}
