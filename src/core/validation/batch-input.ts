import { isJsonObject } from "../json/index.ts";
import { decodeBase64, importWireJsonl, utf8Text, WIRE_JSONL_FORMAT, WireImportError } from "../wire/index.ts";
import { topLevelElements } from "./array-split.ts";
import { sseData } from "./sse-data.ts";

/** What a dropped or pasted file turned out to be. */
export type InputFormat = "json" | "json-array" | "jsonl" | "har" | "wirelog";

/** One message to validate, with where it came from. */
export interface BatchItem {
  /** File name, or "pasted". */
  readonly source: string;
  /** 0-based index of the message within its file, when the file holds several. */
  readonly position?: number;
  /** 1-based line in the file where the message starts, when that means something. */
  readonly line?: number;
  /** 1-based column on that line where the message starts (1 when absent). */
  readonly column?: number;
  /** Where inside a container it came from: "entry 3 response, event 2", "frame #12 nats in". */
  readonly label?: string;
  /** The message's own text. */
  readonly text: string;
  /** Set when the message cannot be read at all (not UTF-8, too large); it is then unparseable. */
  readonly error?: string;
}

export interface SplitInput {
  readonly format: InputFormat;
  readonly items: BatchItem[];
  /** Whole-file remarks: skipped frames, bodies that were not JSON. */
  readonly notes: string[];
}

/** A single message larger than this is refused with a clear reason instead of being parsed. */
export const MAX_MESSAGE_CHARS = 8 * 1024 * 1024;

function item(source: string, text: string, fields: Omit<BatchItem, "source" | "text"> = {}): BatchItem {
  if (text.length > MAX_MESSAGE_CHARS) {
    const mb = (text.length / 1024 / 1024).toFixed(1);
    return { source, text: "", ...fields, error: `The message is ${mb} M characters, over the ${MAX_MESSAGE_CHARS / 1024 / 1024} M this tool validates.` };
  }
  return { source, text, ...fields };
}

function firstLine(text: string): string {
  const end = text.indexOf("\n");
  return (end < 0 ? text : text.slice(0, end)).trim();
}

function parsedObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return isJsonObject(value) ? value : null;
  } catch {
    return null;
  }
}

function splitJsonl(source: string, text: string): SplitInput {
  const items: BatchItem[] = [];
  // The native split costs about a third of an indexOf-and-slice loop over a large capture.
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    if (line.charCodeAt(line.length - 1) === 13) line = line.slice(0, -1);
    const n = i + 1;
    // A line opening with "{" is neither blank nor a batch: the usual case asks no more.
    if (line.charCodeAt(0) !== 123) {
      if (line.trim() === "") continue;
      // A JSON-RPC batch on one line is several messages.
      const batch = line.trimStart().startsWith("[") ? topLevelElements(line) : null;
      if (batch && batch.length > 0 && batch.every((e) => line.charCodeAt(e.start) === 123)) {
        batch.forEach((e, k) => items.push(item(source, line.slice(e.start, e.end), { position: items.length, line: n, column: e.column, label: `batch element ${k}` })));
        continue;
      }
    }
    // The common case builds its item directly: this runs once per line of a large capture.
    items.push(line.length > MAX_MESSAGE_CHARS ? item(source, line, { position: items.length, line: n }) : { source, text: line, position: items.length, line: n });
  }
  return { format: "jsonl", items, notes: [] };
}

function splitArray(source: string, text: string): SplitInput | null {
  const elements = topLevelElements(text);
  if (!elements) return null;
  const items = elements.map((e, i) => item(source, text.slice(e.start, e.end), { position: i, line: e.line, column: e.column }));
  return { format: "json-array", items, notes: [] };
}

function splitWirelog(source: string, text: string): SplitInput {
  const notes: string[] = [];
  let result;
  try {
    result = importWireJsonl(text);
  } catch (err) {
    if (!(err instanceof WireImportError)) throw err;
    return { format: "wirelog", items: [item(source, "", { error: err.message })], notes };
  }
  for (const p of result.problems) notes.push(`line ${p.line}: ${p.reason}`);
  const items: BatchItem[] = [];
  let empty = 0;
  for (const entry of result.entries) {
    if (entry.bytes.length === 0) {
      empty++;
      continue;
    }
    const label = `frame #${entry.seq} ${entry.channel} ${entry.direction} ${entry.target}`;
    const decoded = utf8Text(entry.bytes);
    const fields = { position: items.length, label };
    items.push(decoded === null ? item(source, "", { ...fields, error: "The payload is not UTF-8 text." }) : item(source, decoded, fields));
  }
  if (empty > 0) notes.push(`${empty} frame${empty === 1 ? "" : "s"} had no payload and ${empty === 1 ? "was" : "were"} skipped.`);
  return { format: "wirelog", items, notes };
}

interface HarBody {
  readonly text: string;
  readonly mimeType: string;
}

function harBody(holder: unknown, key: "postData" | "content"): HarBody | string | null {
  if (!isJsonObject(holder)) return null;
  const body = holder[key];
  if (!isJsonObject(body) || typeof body.text !== "string" || body.text === "") return null;
  const mimeType = typeof body.mimeType === "string" ? body.mimeType.toLowerCase() : "";
  if (body.encoding !== "base64") return { text: body.text, mimeType };
  try {
    const text = utf8Text(decodeBase64(body.text));
    return text === null ? "the base64 body is not UTF-8 text" : { text, mimeType };
  } catch {
    return "the base64 body does not decode";
  }
}

function bodyMessages(body: HarBody): string[] | null {
  if (body.mimeType.includes("event-stream")) return sseData(body.text);
  const trimmed = body.text.trimStart();
  if (trimmed.startsWith("[")) {
    const elements = topLevelElements(body.text);
    if (elements) return elements.map((e) => body.text.slice(e.start, e.end));
  }
  return trimmed.startsWith("{") || body.mimeType.includes("json") ? [body.text] : null;
}

function splitHar(source: string, entries: unknown[]): SplitInput {
  const items: BatchItem[] = [];
  const notes: string[] = [];
  let skipped = 0;
  entries.forEach((entry, e) => {
    if (!isJsonObject(entry)) return;
    const request = isJsonObject(entry.request) ? entry.request : {};
    const where = `${String(request.method ?? "")} ${String(request.url ?? "")}`.trim();
    for (const [side, body] of [["request", harBody(entry.request, "postData")], ["response", harBody(entry.response, "content")]] as const) {
      if (body === null) continue;
      const label = `entry ${e} ${side} (${where})`;
      if (typeof body === "string") {
        items.push(item(source, "", { position: items.length, label, error: `The ${side} body cannot be read: ${body}.` }));
        continue;
      }
      const messages = bodyMessages(body);
      if (!messages) {
        skipped++;
        continue;
      }
      messages.forEach((text, k) => {
        const part = messages.length > 1 ? `${label}, message ${k}` : label;
        items.push(item(source, text, { position: items.length, label: part }));
      });
    }
  });
  if (skipped > 0) notes.push(`${skipped} HAR bod${skipped === 1 ? "y was" : "ies were"} not JSON and ${skipped === 1 ? "was" : "were"} skipped.`);
  return { format: "har", items, notes };
}

/**
 * Whether broken text is JSON Lines rather than one broken message: some early line, starting at
 * its first column (pretty-printed JSON indents its inner lines), is a complete JSON value.
 */
function looksLikeJsonl(text: string): boolean {
  const lines = text.split("\n", 6);
  const head = lines[0]!.trim();
  if (head === "{" || head === "[") return false;
  return lines.slice(1, 5).some((line) => /^[[{]/.test(line) && parsedValue(line));
}

function parsedValue(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Splits a file into messages, recognising its format from its content: a Patchbay traffic
 * export, a HAR file, a JSON array, JSON Lines, or a single JSON message. Text that is none of
 * these is one message, so its syntax error is reported where it is.
 */
export function splitInput(source: string, input: string): SplitInput {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const start = text.trimStart();
  const head = firstLine(start);
  if (start.startsWith("[")) {
    const array = splitArray(source, text);
    if (array) return array;
    if (looksLikeJsonl(start) || (head.length < start.trimEnd().length && parsedValue(head))) return splitJsonl(source, text);
    return { format: "json", items: [item(source, text)], notes: [] };
  }
  if (head.length < start.trimEnd().length) {
    const first = parsedObject(head);
    if (first) return first.format === WIRE_JSONL_FORMAT ? splitWirelog(source, text) : splitJsonl(source, text);
  }
  const whole = start.startsWith("{") ? parsedObject(text) : null;
  const log = whole && isJsonObject(whole.log) ? whole.log : null;
  if (log && Array.isArray(log.entries)) return splitHar(source, log.entries);
  // A JSONL file whose first line is broken is still JSONL: one bad line must not hide the rest.
  if (!whole && looksLikeJsonl(start)) return splitJsonl(source, text);
  return { format: "json", items: [item(source, text)], notes: [] };
}
