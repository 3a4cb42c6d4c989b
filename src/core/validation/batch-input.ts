import { isJsonObject } from "../json/index.ts";
import { decodeBase64, importWireJsonl, utf8Text, WIRE_JSONL_FORMAT, WireImportError } from "../wire/index.ts";
import { topLevelElements } from "./array-split.ts";
import { JsonlSplit } from "./jsonl-split.ts";
import { batchItem as item, ListedSplit, type BatchItem, type SplitInput } from "./split-result.ts";
import { sseData } from "./sse-data.ts";

export { MAX_MESSAGE_CHARS, splitItems } from "./split-result.ts";
export type { BatchItem, InputFormat, SplitInput } from "./split-result.ts";

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

function splitArray(source: string, text: string): SplitInput | null {
  const elements = topLevelElements(text);
  if (!elements) return null;
  const items = elements.map((e, i) => item(source, text.slice(e.start, e.end), { position: i, line: e.line, column: e.column }));
  return new ListedSplit("json-array", items);
}

function splitWirelog(source: string, text: string): SplitInput {
  const notes: string[] = [];
  let result;
  try {
    result = importWireJsonl(text);
  } catch (err) {
    if (!(err instanceof WireImportError)) throw err;
    return new ListedSplit("wirelog", [item(source, "", { error: err.message })], notes);
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
  return new ListedSplit("wirelog", items, notes);
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
  return new ListedSplit("har", items, notes);
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
    if (looksLikeJsonl(start) || (head.length < start.trimEnd().length && parsedValue(head))) return new JsonlSplit(source, text);
    return new ListedSplit("json", [item(source, text)]);
  }
  if (head.length < start.trimEnd().length) {
    const first = parsedObject(head);
    if (first) return first.format === WIRE_JSONL_FORMAT ? splitWirelog(source, text) : new JsonlSplit(source, text);
  }
  const whole = start.startsWith("{") ? parsedObject(text) : null;
  const log = whole && isJsonObject(whole.log) ? whole.log : null;
  if (log && Array.isArray(log.entries)) return splitHar(source, log.entries);
  // A JSONL file whose first line is broken is still JSONL: one bad line must not hide the rest.
  if (!whole && looksLikeJsonl(start)) return new JsonlSplit(source, text);
  return new ListedSplit("json", [item(source, text)]);
}
