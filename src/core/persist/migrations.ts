import { DOCUMENT_KINDS, type DocumentKind } from "./document-store.ts";

/** Turns the payload of version N into the payload of version N + 1. */
export type Migration = (data: unknown) => unknown;

/** How one kind evolves: the version written today and the step out of each older version. */
export interface KindMigrations {
  readonly current: number;
  /** `steps[n]` upgrades a version-n payload to version n + 1. */
  readonly steps: Readonly<Record<number, Migration>>;
}

/** Migration chains for every document kind. */
export type MigrationTable = Readonly<Record<DocumentKind, KindMigrations>>;

function firstVersions(): MigrationTable {
  const table = {} as Record<DocumentKind, KindMigrations>;
  for (const kind of DOCUMENT_KINDS) table[kind] = { current: 1, steps: {} };
  return table;
}

/** The shipped table: every kind is at version 1, so there is nothing to upgrade yet. */
export const MIGRATIONS: MigrationTable = firstVersions();
