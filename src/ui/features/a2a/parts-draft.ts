import type { PartDraft } from "../../../core/a2a/index.ts";
import { parseJsonText } from "../../../core/json/index.ts";
import { encodeBase64 } from "../../../core/wire/index.ts";

/** A message part as the form edits it: text, a file (uploaded bytes or a URL), or JSON data. */
export type PartRow =
  | { kind: "text"; text: string }
  | { kind: "file"; source: "upload" | "url"; name: string; mediaType: string; bytes: string; uri: string }
  | { kind: "data"; text: string };

export type PartKind = PartRow["kind"];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const strings = (v: Record<string, unknown>, keys: readonly string[]) => keys.every((k) => typeof v[k] === "string");

/** A saved row read back: a part of a kind this form knows, with every field it needs. */
export function isPartRow(v: unknown): v is PartRow {
  if (!isObject(v)) return false;
  if (v.kind === "text" || v.kind === "data") return strings(v, ["text"]);
  return v.kind === "file" && (v.source === "upload" || v.source === "url") && strings(v, ["name", "mediaType", "bytes", "uri"]);
}

/** A row as a draft keeps it: an uploaded file's bytes are left out (the file is chosen again). */
export function partForDraft(row: PartRow): PartRow {
  return row.kind === "file" && row.source === "upload" ? { ...row, bytes: "" } : row;
}

export function newPart(kind: PartKind): PartRow {
  if (kind === "text") return { kind, text: "" };
  if (kind === "data") return { kind, text: "{}" };
  return { kind, source: "upload", name: "", mediaType: "", bytes: "", uri: "" };
}

/** A row's problem, shown beside it; null when it can be sent. */
export function partProblem(row: PartRow): string | null {
  if (row.kind === "data") {
    const parsed = parseJsonText(row.text);
    return parsed.ok ? null : `not JSON: ${parsed.message} (line ${parsed.line}, column ${parsed.column})`;
  }
  if (row.kind === "file") {
    if (row.source === "upload" && row.bytes === "") return "choose a file to upload";
    if (row.source === "url" && !/^[a-z][a-z0-9+.-]*:\S+$/i.test(row.uri.trim())) return "give the file's absolute URL";
  }
  return null;
}

/** The rows as parts, or the first problem with its row number. */
export function partsOf(rows: readonly PartRow[]): { ok: true; parts: PartDraft[] } | { ok: false; error: string } {
  const parts: PartDraft[] = [];
  for (const [i, row] of rows.entries()) {
    const problem = partProblem(row);
    if (problem) return { ok: false, error: `part ${i + 1}: ${problem}` };
    if (row.kind === "text") parts.push({ kind: "text", text: row.text });
    else if (row.kind === "data") parts.push({ kind: "data", data: (parseJsonText(row.text) as { value: unknown }).value });
    else {
      const meta = { ...(row.name !== "" ? { name: row.name } : {}), ...(row.mediaType !== "" ? { mediaType: row.mediaType } : {}) };
      parts.push(row.source === "upload" ? { kind: "file", ...meta, bytes: row.bytes } : { kind: "file", ...meta, uri: row.uri.trim() });
    }
  }
  return { ok: true, parts };
}

/** An uploaded file as a file row: its bytes in base64, its name and media type. */
export function uploadedPart(name: string, type: string, bytes: Uint8Array): PartRow {
  return { kind: "file", source: "upload", name, mediaType: type || "application/octet-stream", bytes: encodeBase64(bytes), uri: "" };
}
