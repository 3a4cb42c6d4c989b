import type { ReplySetEntry } from "../../fisk/client/reply-set.ts";
import { FISK_PROTOCOLS } from "../../fisk/codec/protocol-ids.ts";
import { isJsonObject } from "../../json/index.ts";

/** One MCP progress notification's numbers and words. */
export type BridgeProgress = (progress: number, total: number | undefined, message: string) => void;

/**
 * A bridged call's reply set, heard as MCP progress while the tool runs: the tool's own progress
 * (a running-tool status that carries `progress`), or else a count of its running-tool keepalives,
 * so an MCP client that resets its timeout on progress keeps waiting for a long tool. MCP wants
 * each notification's progress above the last: the tool's own count starts after the keepalives
 * already counted (its total moved up alike), and a value that does not rise is left out.
 */
export function progressRelay(host: string, remoteName: string, onProgress: BridgeProgress): (entry: ReplySetEntry) => void {
  let last = 0;
  let keepalives = 0;
  /** The keepalives counted before the tool's own progress began; undefined until it begins. */
  let offset: number | undefined;
  return (entry) => {
    if (entry.disposition !== "event" || entry.protocol !== FISK_PROTOCOLS.eventStatus) return;
    const block = entry.value?.block;
    if (!isJsonObject(block) || block.phase !== "running-tool") return;
    if (typeof block.progress === "number" && Number.isFinite(block.progress)) {
      offset ??= keepalives;
      const value = offset + block.progress;
      if (value <= last) return;
      last = value;
      const total = typeof block.total === "number" && Number.isFinite(block.total) ? block.total : undefined;
      const message = typeof block.message === "string" && block.message !== "" ? block.message : `${remoteName} on ${host}: ${block.progress}${total !== undefined ? ` of ${total}` : ""}`;
      onProgress(value, total === undefined ? undefined : offset + total, message);
      return;
    }
    // Once the tool counts for itself, a bare keepalive adds nothing to its count; before, each one rises by one.
    if (offset !== undefined) return;
    last = ++keepalives;
    onProgress(last, undefined, `${remoteName} is still running on ${host} (${Math.round(entry.at / 1000)} s)`);
  };
}
