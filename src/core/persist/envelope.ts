/**
 * The on-disk shape of a workspace document: a small envelope naming its kind and format
 * version around the payload, so a newer Patchbay can upgrade what an older one wrote and an
 * older one refuses what it cannot understand instead of clobbering it.
 */
import { isJsonObject } from "../json/json-object.ts";
import { parseJsonText } from "../json/parse-json-text.ts";
import { DocumentError, type DocumentKind } from "./document-store.ts";
import { MIGRATIONS, type MigrationTable } from "./migrations.ts";

/** A document as stored. */
export interface Envelope {
  readonly format: string;
  readonly version: number;
  readonly savedAt: string;
  readonly data: unknown;
}

/** A decoded document: its payload at the current version, and the version it was stored at. */
export interface Decoded {
  readonly data: unknown;
  readonly storedVersion: number;
  readonly migrated: boolean;
}

/** The `format` field for a kind, e.g. `patchbay.connections`. */
export function formatOf(kind: DocumentKind): string {
  return `patchbay.${kind}`;
}

/** Serialize a payload at the kind's current version; `savedAt` is a wall-clock ms timestamp. */
export function encodeEnvelope(
  kind: DocumentKind,
  data: unknown,
  savedAt: number,
  table: MigrationTable = MIGRATIONS,
): string {
  if (data === undefined) throw new DocumentError("invalid_document", "a document needs a data value");
  const envelope: Envelope = {
    format: formatOf(kind),
    version: table[kind].current,
    savedAt: new Date(savedAt).toISOString(),
    data,
  };
  return `${JSON.stringify(envelope, null, 2)}\n`;
}

function parse(text: string, where: string): unknown {
  const parsed = parseJsonText(text);
  if (parsed.ok) return parsed.value;
  throw new DocumentError("corrupt", `${where} is not valid JSON: ${parsed.message} at line ${parsed.line}, column ${parsed.column}`);
}

/**
 * Parse and upgrade a stored document. Not JSON → `corrupt`; not a Patchbay envelope of this
 * kind → `invalid_document`; written by a newer version, or with no upgrade path → `unknown_version`.
 */
export function decodeEnvelope(
  kind: DocumentKind,
  text: string,
  where = "document",
  table: MigrationTable = MIGRATIONS,
): Decoded {
  const raw = parse(text, where);
  const expected = formatOf(kind);
  if (!isJsonObject(raw)) throw new DocumentError("invalid_document", `${where} is not a Patchbay document (not an object)`);
  if (raw.format !== expected) {
    const found = typeof raw.format === "string" ? JSON.stringify(raw.format) : "no format field";
    throw new DocumentError("invalid_document", `${where} has format ${found}; expected "${expected}"`);
  }
  const version = raw.version;
  if (typeof version !== "number" || !Number.isInteger(version) || version < 0) {
    throw new DocumentError("invalid_document", `${where} has no valid version number`);
  }
  if (!("data" in raw)) throw new DocumentError("invalid_document", `${where} has no data field`);
  const { current, steps } = table[kind];
  if (version > current) {
    throw new DocumentError(
      "unknown_version",
      `${where} is ${expected} version ${version}, newer than this Patchbay understands (${current})`,
    );
  }
  let data: unknown = raw.data;
  for (let v = version; v < current; v++) {
    const step = steps[v];
    if (step === undefined) {
      throw new DocumentError("unknown_version", `${where} is ${expected} version ${version}, which has no upgrade path`);
    }
    try {
      data = step(data);
    } catch (err) {
      throw new DocumentError("invalid_document", `${where} could not be upgraded from version ${v}: ${(err as Error).message}`);
    }
  }
  return { data, storedVersion: version, migrated: version !== current };
}
