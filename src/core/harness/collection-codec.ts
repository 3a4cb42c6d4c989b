/**
 * A collection in and out of its file: parsed with every problem named, written in its
 * canonical form inside the workspace envelope.
 */
import { DocumentError } from "../persist/document-store.ts";
import { decodeEnvelope, encodeEnvelope } from "../persist/envelope.ts";
import { canonicalCollection } from "./collection-canonical.ts";
import { checkCollection } from "./collection-check.ts";
import type { CollectionProblem } from "./collection-check-kit.ts";
import type { Collection } from "./collection-types.ts";

export { canonicalCollection } from "./collection-canonical.ts";
export type { CollectionProblem } from "./collection-check-kit.ts";
export { LIMITS as COLLECTION_LIMITS } from "./collection-check-kit.ts";

export type ParseCollectionResult =
  | { readonly ok: true; readonly collection: Collection }
  | { readonly ok: false; readonly problems: readonly CollectionProblem[] };

/** The value as a collection, or every problem with a pointer to it. Never throws. */
export function parseCollection(data: unknown): ParseCollectionResult {
  const problems = checkCollection(data);
  return problems.length === 0 ? { ok: true, collection: data as Collection } : { ok: false, problems };
}

/** Problems shown in one message; the rest are counted. */
const LISTED = 20;

/** `pointer: message; …`, the first problems and how many more, for an error message. */
export function describeProblems(problems: readonly CollectionProblem[]): string {
  const shown = problems.slice(0, LISTED).map((p) => `${p.pointer === "" ? "(document)" : p.pointer}: ${p.message}`);
  const more = problems.length > LISTED ? `; and ${problems.length - LISTED} more` : "";
  return shown.join("; ") + more;
}

/** The file text of a collection: its canonical form in a `patchbay.collections` envelope. */
export function encodeCollectionFile(c: Collection, savedAt: number): string {
  return encodeEnvelope("collections", canonicalCollection(c), savedAt);
}

/** A collection file read back; a DocumentError naming every problem when it is not valid. */
export function decodeCollectionFile(text: string, where: string): Collection {
  const { data } = decodeEnvelope("collections", text, where);
  const parsed = parseCollection(data);
  if (!parsed.ok) throw new DocumentError("invalid_document", `${where} is not a valid collection: ${describeProblems(parsed.problems)}`);
  return parsed.collection;
}
