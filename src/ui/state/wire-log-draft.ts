import { isJsonObject } from "../../core/json/json-object.ts";
import { restoreWireTail, WireImportError, wireLogTail, type WireLog } from "../../core/wire/index.ts";
import type { Drafts } from "./drafts.svelte.ts";

export const WIRE_DRAFT = "traffic";
/** Characters of the log kept across a reload: the newest frames that fit, well inside a 5 MB storage. */
export const WIRE_DRAFT_CHARS = 2_000_000;
/** A busy log is written at most this often. */
const WIRE_SAVE_MS = 1_500;
/** One storage write: a few milliseconds, so saving a big log never holds the page up. */
export const WIRE_PIECE_CHARS = 100_000;

function readSaved(drafts: Drafts): string | { problem: string } | undefined {
  const read = drafts.read(WIRE_DRAFT);
  if (read.kind !== "ok") return undefined;
  // Written whole by an earlier Patchbay.
  if (typeof read.data === "string") return read.data;
  const { tag, parts } = isJsonObject(read.data) ? read.data : {};
  if (typeof tag !== "string" || typeof parts !== "number" || !Number.isInteger(parts) || parts < 1) return { problem: "its index is not one this Patchbay wrote" };
  const joined = drafts.readParts(WIRE_DRAFT, tag, parts);
  return joined.ok ? joined.text : { problem: joined.reason };
}

/**
 * Brings back the log a reload interrupted, then keeps its newest frames (within the ring's
 * capacity and WIRE_DRAFT_CHARS) in the drafts as the log changes, written piece by piece across
 * tasks. `flush` writes what is pending now, whole (the page is going away).
 */
export function keepWireLog(log: WireLog, drafts: Drafts, wallNow: () => number, maxChars = WIRE_DRAFT_CHARS): { stop(): void; flush(): void } {
  const saved = log.size === 0 ? readSaved(drafts) : undefined;
  if (saved !== undefined) {
    try {
      if (typeof saved !== "string") throw new WireImportError(saved.problem);
      restoreWireTail(log, saved);
    } catch (err) {
      drafts.problem = `The saved Traffic log could not be read back: ${err instanceof WireImportError ? err.message : String(err)}`;
    }
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  let armedIn = drafts.generation;
  let writes = 0;
  let writing: ReturnType<typeof setTimeout> | undefined;

  /** Writes the tail in pieces, the index last, so a reload mid-write finds the pieces do not match and says so. */
  const write = (chars: number, whole: boolean, retry: boolean) => {
    const generation = armedIn;
    const text = wireLogTail(log, chars, wallNow()).text;
    const tag = `${wallNow()}.${++writes}`;
    const parts = Math.max(1, Math.ceil(text.length / WIRE_PIECE_CHARS));
    let next = 0;
    const step = () => {
      writing = undefined;
      // Cleared since the change that armed this save: the draft stays gone until the log changes again.
      if (generation !== drafts.generation) return;
      do {
        const piece = text.slice(next * WIRE_PIECE_CHARS, (next + 1) * WIRE_PIECE_CHARS);
        // A storage too full for the budget gets half of it, once, before the problem is shown.
        if (!drafts.savePart(WIRE_DRAFT, next, tag, piece)) return void (retry && write(chars / 2, whole, false));
        next++;
      } while (whole && next < parts);
      if (next < parts) return void (writing = setTimeout(step, 0));
      if (drafts.save(WIRE_DRAFT, { tag, parts, chars: text.length })) drafts.removeParts(WIRE_DRAFT, parts);
    };
    step();
  };
  const save = (whole: boolean) => {
    timer = undefined;
    clearTimeout(writing);
    writing = undefined;
    write(maxChars, whole, true);
  };
  const off = log.on("change", () => {
    if (timer === undefined) armedIn = drafts.generation;
    timer ??= setTimeout(() => save(false), WIRE_SAVE_MS);
  });
  return {
    stop() {
      off();
      clearTimeout(timer);
      clearTimeout(writing);
    },
    flush() {
      if (timer === undefined && writing === undefined) return;
      clearTimeout(timer);
      save(true);
    },
  };
}
