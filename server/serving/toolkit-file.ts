/**
 * A toolkit read from a file: either a bare toolkit (JSON or YAML, format "patchbay.toolkit") or
 * a saved workspace document, the versioned envelope the document store writes around one.
 */
import { isJsonObject } from "../../src/core/json/index.ts";
import { DocumentError } from "../../src/core/persist/document-store.ts";
import { decodeEnvelope, formatOf } from "../../src/core/persist/envelope.ts";
import { isDocumentKind } from "../../src/core/persist/names.ts";
import { guessSyntax, MAX_TOOLKIT_CHARS, parseToolkitText, type ToolkitSyntax } from "../../src/core/serving/toolkit/toolkit-text.ts";
import { readToolkit, type ReadToolkitResult } from "../../src/core/serving/toolkit/toolkit-read.ts";

const ENVELOPE_PREFIX = "patchbay.";

const failed = (message: string): ReadToolkitResult => ({ issues: [{ pointer: "", message, severity: "error" }] });

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Reads a toolkit file's text; `where` names the file in messages. Issue pointers are into the file. */
export function readToolkitFile(text: string, syntax: ToolkitSyntax = guessSyntax(text), where = "the file"): ReadToolkitResult {
  if (text.length > MAX_TOOLKIT_CHARS || syntax !== "json") return parseToolkitText(text, syntax);
  const value = parsedJson(text);
  // Anything that is not an envelope is read as a bare toolkit, whose errors name what is wrong.
  if (!isJsonObject(value) || typeof value.format !== "string" || !value.format.startsWith(ENVELOPE_PREFIX) || !("data" in value)) return parseToolkitText(text, syntax);
  const kind = value.format.slice(ENVELOPE_PREFIX.length);
  if (!isDocumentKind(kind)) return parseToolkitText(text, syntax);
  if (kind !== "toolkits") return failed(`${where} is a saved ${kind} document, not a toolkit; give a saved toolkit (${formatOf("toolkits")}) or a toolkit file`);
  let data: unknown;
  try {
    data = decodeEnvelope("toolkits", text, where).data;
  } catch (error) {
    if (error instanceof DocumentError) return failed(error.message);
    throw error;
  }
  const read = readToolkit(data);
  const issues = read.issues.map((issue) => ({ ...issue, pointer: `/data${issue.pointer}` }));
  return read.toolkit ? { toolkit: read.toolkit, issues } : { issues };
}
