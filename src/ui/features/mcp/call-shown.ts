import { isJsonObject } from "../../../core/json/index.ts";
import type { CallOutcome } from "../../../core/mcp/index.ts";
import type { ResultCheck } from "./result-check.ts";

/** What the workbench shows for one tool call: its outcome or why it was not made, and its check. */
export interface CallShown {
  readonly outcome: CallOutcome | null;
  readonly error: string | null;
  readonly check: ResultCheck | null;
}

/** The argument text as a key: the value it parses to (so reindenting changes nothing), else the text. */
export function argsKey(text: string): string {
  try {
    return JSON.stringify(text.trim() === "" ? {} : JSON.parse(text));
  } catch {
    return `text:${text}`;
  }
}

/** The argument text as the object a call sends (empty text is `{}`), or why it cannot be. */
export function callArguments(text: string): { readonly args: Record<string, unknown> } | { readonly error: string } {
  let args: unknown;
  try {
    args = text.trim() === "" ? {} : JSON.parse(text);
  } catch (error) {
    return { error: `The arguments are not JSON: ${(error as Error).message}` };
  }
  return isJsonObject(args) ? { args } : { error: "The arguments must be a JSON object" };
}
