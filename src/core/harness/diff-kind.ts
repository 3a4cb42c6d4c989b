/**
 * What a diff input is, shared by the Collections Diff view and `patchbay diff`: a run report, a
 * Traffic capture, a tool list or an agent card. Text is read as one JSON document or as a
 * Patchbay wire log (JSONL); the kind is then detected from the value's shape.
 */
import { jsonTypeName } from "../forms/json-values.ts";
import { isJsonObject } from "../json/json-object.ts";
import { NAMESPACE } from "../packs/fisk-ai/protocol.ts";
import { importWireJsonl, WIRE_JSONL_FORMAT, WireImportError } from "../wire/jsonl.ts";
import type { WireEntry } from "../wire/wire-entry.ts";
import { diffAgentCards, cardsEqual, type CardDiff, type CardDiffOptions } from "./diff-cards.ts";
import { diffCaptures, type CaptureDiff, type CaptureDiffOptions } from "./diff-captures.ts";
import { DiffInputError } from "./diff-json.ts";
import { diffRuns, type RunDiff } from "./diff-runs.ts";
import { diffToolLists, toolListsEqual, type ToolListDiff, type ToolDiffOptions } from "./diff-tools.ts";
import type { RunReport } from "./run-types.ts";

export type DiffKind = "run" | "capture" | "tools" | "card";

/** Each kind in words, for "detected: …" and mismatch messages. */
export const DIFF_KIND_WORDS: Readonly<Record<DiffKind, string>> = {
  run: "a run report",
  capture: "a Traffic capture",
  tools: "a tool list",
  card: "an agent card",
};

/** Longest text read as a diff input; a bigger paste or file is refused, not truncated. */
export const DIFF_INPUT_MAX_CHARS = 64 * 1024 * 1024;

/** A parsed input and what could not be read of it (wire log lines skipped, with line numbers). */
export interface DiffInput {
  readonly value: unknown;
  readonly problems: readonly string[];
}

const isWireEntry = (e: unknown): e is WireEntry =>
  isJsonObject(e) && typeof e.channel === "string" && (e.direction === "out" || e.direction === "in") && e.bytes instanceof Uint8Array && isJsonObject(e.decoded);

function fromWireLog(text: string): DiffInput {
  try {
    const imported = importWireJsonl(text);
    return { value: imported.entries, problems: imported.problems.map((p) => `line ${p.line}: ${p.reason}`) };
  } catch (err) {
    if (err instanceof WireImportError) throw new DiffInputError(err.message);
    throw err;
  }
}

const firstLine = (text: string): string => {
  const lines = text.split("\n", 50);
  return lines.find((l) => l.trim() !== "") ?? "";
};

/**
 * Text read as one JSON document, or a wire log export as its entries (a WireEntry array), with
 * the lines it could not import. Throws DiffInputError for empty, oversize or unreadable text.
 */
export function readDiffInput(text: string): DiffInput {
  if (text.length > DIFF_INPUT_MAX_CHARS) throw new DiffInputError(`the input is ${text.length} characters; at most ${DIFF_INPUT_MAX_CHARS} are read`);
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (source.trim() === "") throw new DiffInputError("the input is empty: paste or choose a run report, a Traffic capture, a tool list or an agent card");
  let whole: unknown;
  let jsonError: string;
  try {
    whole = JSON.parse(source);
    if (isJsonObject(whole) && whole.format === WIRE_JSONL_FORMAT) return fromWireLog(source);
    return { value: whole, problems: [] };
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    jsonError = err.message;
  }
  let head: unknown;
  try {
    head = JSON.parse(firstLine(source));
  } catch {
    head = undefined;
  }
  if (isJsonObject(head) && head.format === WIRE_JSONL_FORMAT) return fromWireLog(source);
  throw new DiffInputError(`not JSON (${jsonError}), and not a Traffic capture (JSONL whose first line has "format": "${WIRE_JSONL_FORMAT}")`);
}

/** The value of a JSON document, or a wire log export's entries. Throws DiffInputError (see readDiffInput). */
export function parseDiffInput(text: string): unknown {
  return readDiffInput(text).value;
}

const isFiskCard = (v: Record<string, unknown>): boolean =>
  (typeof v.protocol === "string" && v.protocol.startsWith(`${NAMESPACE}.`)) || Array.isArray(v.protocols) || (Array.isArray(v.tools) && typeof v.name === "string");

const isA2aCard = (v: Record<string, unknown>): boolean =>
  Array.isArray(v.skills) ||
  isJsonObject(v.capabilities) ||
  (typeof v.name === "string" && (typeof v.url === "string" || Array.isArray(v.supportedInterfaces) || typeof v.protocolVersion === "string"));

const isToolList = (v: readonly unknown[]): boolean => v.every((t) => isJsonObject(t) && typeof t.name === "string");

/**
 * The kind of a parsed diff input, or null when it is none of them. A run report has
 * `"format": "patchbay.run"`; a capture is an array of wire entries (as parseDiffInput reads a
 * JSONL export); tools are an array of named objects, a tools/list result or its JSON-RPC
 * response; a card is an A2A Agent Card or a fisk-ai card or discovery reply. An empty array
 * reads as an empty tool list (pairDiffKinds lets it stand for an empty capture too).
 */
export function detectDiffKind(value: unknown): DiffKind | null {
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every(isWireEntry)) return "capture";
    return isToolList(value) ? "tools" : null;
  }
  if (!isJsonObject(value)) return null;
  if (value.format === "patchbay.run" && Array.isArray(value.steps)) return "run";
  if (isFiskCard(value) || isA2aCard(value)) return "card";
  if (Array.isArray(value.tools)) return "tools";
  if (isJsonObject(value.result) && Array.isArray(value.result.tools)) return "tools";
  return null;
}

/** Why a value is no diff input, in words naming the side. */
export function undetectedMessage(value: unknown, side: string): string {
  const got = isJsonObject(value)
    ? `an object with ${Object.keys(value).length === 0 ? "no members" : `members ${Object.keys(value).slice(0, 6).map((k) => JSON.stringify(k)).join(", ")}${Object.keys(value).length > 6 ? ", …" : ""}`}`
    : Array.isArray(value)
      ? "an array whose items are neither all wire entries nor all named tools"
      : jsonTypeName(value);
  return `${side}: not something to diff: expected a run report ("format": "patchbay.run"), a Traffic capture (JSONL export), an MCP tools/list result or tool array, or an agent card; got ${got}`;
}

/** The one kind both sides share. Throws DiffInputError for an undetected side or two kinds. */
export function pairDiffKinds(before: unknown, after: unknown): DiffKind {
  const b = detectDiffKind(before);
  const a = detectDiffKind(after);
  if (b === null) throw new DiffInputError(undetectedMessage(before, "before"));
  if (a === null) throw new DiffInputError(undetectedMessage(after, "after"));
  if (a === b) return a;
  const empty = (v: unknown): boolean => Array.isArray(v) && v.length === 0;
  if (b === "capture" && empty(after)) return b;
  if (a === "capture" && empty(before)) return a;
  throw new DiffInputError(`before is ${DIFF_KIND_WORDS[b]} and after is ${DIFF_KIND_WORDS[a]}: compare two inputs of one kind`);
}

export type DiffOutcome =
  | { readonly kind: "run"; readonly diff: RunDiff }
  | { readonly kind: "capture"; readonly diff: CaptureDiff }
  | { readonly kind: "tools"; readonly diff: ToolListDiff }
  | { readonly kind: "card"; readonly diff: CardDiff };

export type DiffOptions = ToolDiffOptions & CardDiffOptions & CaptureDiffOptions;

/** Both sides diffed by their shared kind. Throws DiffInputError as pairDiffKinds and each diff do. */
export function diffByKind(before: unknown, after: unknown, options: DiffOptions = {}): DiffOutcome {
  const kind = pairDiffKinds(before, after);
  switch (kind) {
    case "run":
      return { kind, diff: diffRuns(before as RunReport, after as RunReport) };
    case "capture":
      return { kind, diff: diffCaptures(before, after, options) };
    case "tools":
      return { kind, diff: diffToolLists(before, after, options) };
    case "card":
      return { kind, diff: diffAgentCards(before, after, options) };
  }
}

/** True when the diff found nothing to show: no "No differences" ever hides a change. */
export function diffIsEmpty(outcome: DiffOutcome): boolean {
  switch (outcome.kind) {
    case "run": {
      const d = outcome.diff;
      return d.steps.every((s) => s.change === "same" && s.assertions.length === 0 && s.outcome === undefined);
    }
    case "capture":
      return outcome.diff.changed.length + outcome.diff.onlyBefore.length + outcome.diff.onlyAfter.length === 0;
    case "tools":
      return toolListsEqual(outcome.diff);
    case "card":
      return cardsEqual(outcome.diff);
  }
}
