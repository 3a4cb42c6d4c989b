import {
  importWireJsonl,
  replaceLogContents,
  WireImportError,
  wireJsonlLines,
  type WireImportProblem,
  type WireJsonlHeader,
  type WireLog,
} from "../../../core/wire/index.ts";
import { downloadBlob, fileTimestamp } from "../../lib/download.ts";

export type ImportReport =
  | {
      readonly kind: "done";
      readonly fileName: string;
      readonly header: WireJsonlHeader;
      /** Entries read from the file without error. */
      readonly imported: number;
      /** Of those, the oldest that did not fit the log's capacity. */
      readonly overflow: number;
      /** Entries that were in the log before and were replaced. */
      readonly replaced: number;
      readonly problems: readonly WireImportProblem[];
    }
  | { readonly kind: "failed"; readonly fileName: string; readonly message: string };

/** Read a JSONL export and replace the log's contents with it. */
export async function importIntoLog(log: WireLog, file: File): Promise<ImportReport> {
  let text: string;
  try {
    text = await file.text();
  } catch (err) {
    return { kind: "failed", fileName: file.name, message: `could not read the file: ${(err as Error).message}` };
  }
  try {
    const result = importWireJsonl(text);
    const replaced = log.size;
    const { dropped } = replaceLogContents(log, result.entries);
    return {
      kind: "done",
      fileName: file.name,
      header: result.header,
      imported: result.entries.length,
      overflow: dropped,
      replaced,
      problems: result.problems,
    };
  } catch (err) {
    const message = err instanceof WireImportError ? err.message : `import failed: ${String(err)}`;
    return { kind: "failed", fileName: file.name, message };
  }
}

/** Offer the whole log as `patchbay-traffic-<timestamp>.jsonl`; returns the file name. */
export function downloadLog(log: WireLog, wallNow: number): string {
  const lines = wireJsonlLines(log.entries(), { capacity: log.capacity, dropped: log.dropped, exportedAt: wallNow });
  const name = `patchbay-traffic-${fileTimestamp(wallNow)}.jsonl`;
  downloadBlob(new Blob(Array.from(lines), { type: "application/x-ndjson" }), name);
  return name;
}
