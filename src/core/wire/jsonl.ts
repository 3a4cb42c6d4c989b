import { isJsonObject } from "../json/json-object.ts";
import { entryFrom, isCount, LineError, wireEntryLine } from "./jsonl-entry.ts";
import type { WireEntry } from "./wire-entry.ts";
import type { WireLog } from "./wire-log.ts";

/** The `format` value that marks a Patchbay wire log export. */
export const WIRE_JSONL_FORMAT = "patchbay.wirelog";
/** The newest export format version this code writes and reads. */
export const WIRE_JSONL_VERSION = 1;

/** First line of an export: what it is and the state of the log it came from. */
export interface WireJsonlHeader {
  readonly format: typeof WIRE_JSONL_FORMAT;
  readonly version: number;
  /** ISO 8601 wall time of the export. */
  readonly exportedAt: string;
  readonly capacity: number;
  readonly dropped: number;
  /** Number of entry lines that follow the header. */
  readonly count: number;
}

/** The log state an export records in its header. */
export interface WireExportMeta {
  readonly capacity: number;
  readonly dropped: number;
  /** Wall time of the export in ms since the epoch (from the injected clock). */
  readonly exportedAt: number;
}

/** A line that could not be imported, or a file-level inconsistency (reported on the header line). */
export interface WireImportProblem {
  readonly line: number;
  readonly reason: string;
}

export interface WireImportResult {
  readonly header: WireJsonlHeader;
  readonly entries: WireEntry[];
  readonly problems: WireImportProblem[];
}

/** The file as a whole cannot be imported (empty, not a wire log, or a newer format). */
export class WireImportError extends Error {
  override readonly name = "WireImportError";
}

/** The export as newline-terminated lines: the header, then one line per entry, oldest first. */
export function* wireJsonlLines(entries: readonly WireEntry[], meta: WireExportMeta): Generator<string> {
  const header: WireJsonlHeader = {
    format: WIRE_JSONL_FORMAT,
    version: WIRE_JSONL_VERSION,
    exportedAt: new Date(meta.exportedAt).toISOString(),
    capacity: meta.capacity,
    dropped: meta.dropped,
    count: entries.length,
  };
  yield JSON.stringify(header) + "\n";
  for (const e of entries) yield wireEntryLine(e) + "\n";
}

function parseHeader(line: string, n: number): WireJsonlHeader {
  const at = `line ${n}`;
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch (err) {
    throw new WireImportError(`${at}: not a Patchbay wire log: the header is not JSON (${(err as Error).message})`);
  }
  if (!isJsonObject(raw) || raw.format !== WIRE_JSONL_FORMAT) {
    throw new WireImportError(`${at}: not a Patchbay wire log: the header must have "format": "${WIRE_JSONL_FORMAT}"`);
  }
  const { version, exportedAt, capacity, dropped, count } = raw;
  if (!Number.isSafeInteger(version) || (version as number) < 1) {
    throw new WireImportError(`${at}: header "version" must be a positive integer, got ${JSON.stringify(version)}`);
  }
  if ((version as number) > WIRE_JSONL_VERSION) {
    throw new WireImportError(
      `${at}: this file uses wire log format version ${version as number}; this Patchbay reads up to version ${WIRE_JSONL_VERSION}. Open it with a newer Patchbay.`,
    );
  }
  if (typeof exportedAt !== "string") throw new WireImportError(`${at}: header "exportedAt" must be a string`);
  if (!isCount(capacity) || capacity < 1) throw new WireImportError(`${at}: header "capacity" must be a positive integer`);
  if (!isCount(dropped)) throw new WireImportError(`${at}: header "dropped" must be a non-negative integer`);
  if (!isCount(count)) throw new WireImportError(`${at}: header "count" must be a non-negative integer`);
  return { format: WIRE_JSONL_FORMAT, version: version as number, exportedAt, capacity, dropped, count };
}

/** Calls `fn(line, lineNumber)` for each line (1-based), without splitting the whole text up front. */
function eachLine(text: string, fn: (line: string, n: number) => void): void {
  let at = 0;
  let n = 0;
  while (at < text.length) {
    let end = text.indexOf("\n", at);
    if (end < 0) end = text.length;
    const line = text.charCodeAt(end - 1) === 13 ? text.slice(at, end - 1) : text.slice(at, end);
    fn(line, ++n);
    at = end + 1;
  }
}

/**
 * Parse an export back into entries. A file that is not a wire log, or is from a newer format,
 * throws WireImportError. Any bad entry line is skipped and reported with its line number; the
 * other lines are still imported. The decoded view is derived again from the bytes.
 */
export function importWireJsonl(input: string): WireImportResult {
  const source = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  let header: WireJsonlHeader | null = null;
  const entries: WireEntry[] = [];
  const problems: WireImportProblem[] = [];
  let entryLines = 0;
  let headerLine = 1;
  eachLine(source, (line, n) => {
    if (line.trim() === "") return;
    if (header === null) {
      header = parseHeader(line, n);
      headerLine = n;
      return;
    }
    entryLines++;
    const unknownKeys: string[] = [];
    try {
      entries.push(entryFrom(JSON.parse(line), unknownKeys));
      if (unknownKeys.length > 0) {
        problems.push({ line: n, reason: `imported; unknown field(s) ignored: ${unknownKeys.join(", ")}` });
      }
    } catch (err) {
      if (err instanceof LineError) problems.push({ line: n, reason: err.message });
      else if (err instanceof SyntaxError) problems.push({ line: n, reason: `not JSON: ${err.message}` });
      else throw err;
    }
  });
  const found = header as WireJsonlHeader | null;
  if (found === null) throw new WireImportError("the file is empty: expected a wire log header on line 1");
  if (found.count !== entryLines) {
    problems.unshift({
      line: headerLine,
      reason: `the header announces ${found.count} entries but the file holds ${entryLines} entry lines (truncated or edited?)`,
    });
  }
  return { header: found, entries, problems };
}

/** What replacing a log's contents with imported entries kept and pushed out. */
export interface WireRestoreOutcome {
  readonly kept: number;
  /** Oldest imported entries that did not fit the log's capacity. */
  readonly dropped: number;
}

/** Replace the log's contents with the entries; when they exceed its capacity the newest are kept. */
export function replaceLogContents(log: WireLog, entries: readonly WireEntry[]): WireRestoreOutcome {
  log.clear();
  log.restore(entries);
  // clear() zeroed the dropped count, so what it holds now is exactly what restore() pushed out.
  return { kept: log.size, dropped: log.dropped };
}
