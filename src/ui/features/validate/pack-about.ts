import type { SchemaDraft } from "../../../core/validation/types.ts";

export const DRAFT_LABELS: Readonly<Record<SchemaDraft, string>> = {
  "draft-07": "JSON Schema draft-07",
  "2020-12": "JSON Schema 2020-12",
};

const FULL_COMMIT = /^[0-9a-f]{40}$/i;

/** A revision as shown: a full commit hash shortened to 12 characters, a tag as it is. */
export function shortRevision(revision: string): string {
  return FULL_COMMIT.test(revision) ? revision.slice(0, 12) : revision;
}
