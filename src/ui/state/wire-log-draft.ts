import { restoreWireTail, WireImportError, wireLogTail, type WireLog } from "../../core/wire/index.ts";
import type { Drafts } from "./drafts.svelte.ts";

export const WIRE_DRAFT = "traffic";
/** Characters of the log kept across a reload: the newest frames that fit, well inside a 5 MB storage. */
export const WIRE_DRAFT_CHARS = 2_000_000;
/** A busy log is written at most this often. */
const WIRE_SAVE_MS = 1_500;

/**
 * Brings back the log a reload interrupted, then keeps its newest frames (within the ring's
 * capacity and WIRE_DRAFT_CHARS) in the drafts as the log changes. `flush` writes a pending save now.
 */
export function keepWireLog(log: WireLog, drafts: Drafts, wallNow: () => number, maxChars = WIRE_DRAFT_CHARS): { stop(): void; flush(): void } {
  const read = drafts.read(WIRE_DRAFT);
  if (read.kind === "ok" && typeof read.data === "string" && log.size === 0) {
    try {
      restoreWireTail(log, read.data);
    } catch (err) {
      drafts.problem = `The saved Traffic log could not be read back: ${err instanceof WireImportError ? err.message : String(err)}`;
    }
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  let armedIn = drafts.generation;
  const save = () => {
    timer = undefined;
    // Cleared since the change that armed this save: the draft stays gone until the log changes again.
    if (armedIn !== drafts.generation) return;
    // A storage too full for the budget gets half of it, once, before the problem is shown.
    if (!drafts.save(WIRE_DRAFT, wireLogTail(log, maxChars, wallNow()).text)) drafts.save(WIRE_DRAFT, wireLogTail(log, maxChars / 2, wallNow()).text);
  };
  const off = log.on("change", () => {
    if (timer === undefined) armedIn = drafts.generation;
    timer ??= setTimeout(save, WIRE_SAVE_MS);
  });
  return {
    stop() {
      off();
      clearTimeout(timer);
    },
    flush() {
      if (timer === undefined) return;
      clearTimeout(timer);
      save();
    },
  };
}
