/**
 * Answers in the other era's shape, named: a server that negotiated 2026-07-28 but answers
 * without `resultType` (legacy shape), or a legacy server that answers with a 2026-07-28
 * `resultType`. The answer itself is kept and shown as received.
 */
import { isJsonObject } from "../json/index.ts";
import type { ProtocolEra } from "./era.ts";

export function eraMismatch(method: string, result: unknown, era: ProtocolEra, version: string): string | undefined {
  if (!isJsonObject(result)) return undefined;
  if (era === "modern" && !("resultType" in result)) {
    return `The server negotiated ${version} but answered ${method} in the legacy shape: the result has no resultType, which every 2026-07-28 result carries.`;
  }
  if (era === "legacy" && typeof result.resultType === "string" && result.resultType !== "complete") {
    return `The server negotiated ${version} but answered ${method} with resultType ${JSON.stringify(result.resultType)}, a 2026-07-28 shape a legacy connection cannot follow.`;
  }
  return undefined;
}

/** A request the server sent on a modern connection, where 2026-07-28 has the server ask through input_required instead. */
export function modernServerRequest(method: string): string {
  return `The server sent a ${method} request on a 2026-07-28 connection, the legacy way to ask for input; 2026-07-28 servers ask with an input_required result, so it was not answered.`;
}
