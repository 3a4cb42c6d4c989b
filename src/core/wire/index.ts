export { Base64Error, decodeBase64, encodeBase64 } from "./base64.ts";
export { decodeFrame, DECODE_LIMIT_BYTES, exactUtf8Text, utf8Text } from "./decode.ts";
export { compileWireFilter, filterWireEntries, isErrorEntry, SEARCH_PAYLOAD_LIMIT } from "./filter.ts";
export type { WireFilterSpec, WireStatusFilter } from "./filter.ts";
export {
  importWireJsonl,
  replaceLogContents,
  WIRE_JSONL_FORMAT,
  WIRE_JSONL_VERSION,
  WireImportError,
  wireJsonlLines,
} from "./jsonl.ts";
export { wireEntryLine } from "./jsonl-entry.ts";
export type { WireExportMeta, WireImportProblem, WireImportResult, WireJsonlHeader, WireRestoreOutcome } from "./jsonl.ts";
export { DEFAULT_WIRE_CAPACITY, WireLog } from "./wire-log.ts";
export type { WireLogSnapshot } from "./wire-log.ts";
export { WIRE_CHANNELS } from "./wire-entry.ts";
export type { WireChannel, WireDecoded, WireDirection, WireEntry, WireFrameInput } from "./wire-entry.ts";
export { restoreWireTail, wireLogTail } from "./wire-tail.ts";
export type { WireTail } from "./wire-tail.ts";
export { httpFrameHeaders } from "./http-headers.ts";
export type { HeaderSource } from "./http-headers.ts";
