import { uniqueName } from "../../../core/harness/index.ts";

/** `recorded-2026-01-02T03-04-05`: a collection name from the wall clock, safe as a document name. */
export function defaultRecordName(wallNow: number): string {
  return `recorded-${new Date(wallNow).toISOString().slice(0, 19).replaceAll(":", "-")}`;
}

/** The default name, with `-2`, `-3`… when a collection has it already. */
export function freeRecordName(wallNow: number, taken: readonly string[]): string {
  return uniqueName(defaultRecordName(wallNow), new Set(taken), "-");
}
