import { wireJsonlLines, type WireEntry, type WireExportMeta } from "../../../core/wire/index.ts";
import { openInValidate } from "../validate/handoff.ts";

/** Frames as a Patchbay traffic export, the format the Validate workbench reads frame by frame. */
export function framesBlob(entries: readonly WireEntry[], meta: WireExportMeta): Blob {
  return new Blob(Array.from(wireJsonlLines(entries, meta)), { type: "application/x-ndjson" });
}

/**
 * Opens the Validate workbench on these frames. Each frame's payload is one message, placed by
 * its sequence number, channel, direction and target; frames without a payload are skipped there.
 */
export function validateFrames(entries: readonly WireEntry[], meta: WireExportMeta, name: string): void {
  openInValidate({ inputs: [{ name, blob: framesBlob(entries, meta) }], selectFirst: entries.length === 1 });
}
