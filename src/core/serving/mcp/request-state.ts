/**
 * The `requestState` Patchbay hands out with an `input_required` answer. It comes back from the
 * client on the retry, so it is signed (HMAC-SHA256 with a key made for this launch) and bound to
 * the call it belongs to; anything altered, expired or minted for another call is refused with a
 * JSON-RPC error that says so.
 */
import { createRequestStateCodec, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { isJsonObject } from "../../json/index.ts";

type JsonObject = Record<string, unknown>;

/** How long an approval question stays answerable. */
export const REQUEST_STATE_TTL_S = 600;
export const REQUEST_STATE_KEY_BYTES = 32;

export interface RequestStateSigner {
  /** Seals `payload` for the call named by `binding` (e.g. the tool and its arguments). */
  mint(payload: JsonObject, binding: string): Promise<string>;
  /** The payload, or a ProtocolError (-32602) saying why the state cannot be trusted. */
  verify(state: unknown, binding: string): Promise<JsonObject>;
}

const WHY: Readonly<Record<string, string>> = {
  mac: "it was altered after this server issued it, or another server (or an earlier launch of this one) issued it",
  malformed: "it is not a requestState this server issues",
  expired: `it expired (a requestState is good for ${REQUEST_STATE_TTL_S / 60} minutes)`,
  bind: "it was issued for a different call (another tool, other arguments or another method)",
};

export function invalidRequestState(reason: string): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Invalid requestState: ${reason}. Nothing was run; call again without requestState and inputResponses to start over.`,
    { reason: "invalid_request_state" },
  );
}

/** A signer with the given key (at least 32 random bytes, made once per launch). */
export function requestStateSigner(key: Uint8Array): RequestStateSigner {
  if (key.length < REQUEST_STATE_KEY_BYTES) throw new RangeError(`a requestState key needs at least ${REQUEST_STATE_KEY_BYTES} bytes`);
  const codecFor = (binding: string) => createRequestStateCodec<JsonObject>({ key, ttlSeconds: REQUEST_STATE_TTL_S, bind: () => binding });
  return {
    mint: (payload, binding) => codecFor(binding).mint(payload, {} as never),
    async verify(state, binding) {
      if (typeof state !== "string") throw invalidRequestState("it must be the string this server issued");
      let payload: unknown;
      try {
        payload = await codecFor(binding).verify(state, {} as never);
      } catch (error) {
        throw invalidRequestState(WHY[(error as Error).message] ?? "it could not be verified");
      }
      if (!isJsonObject(payload)) throw invalidRequestState(WHY.malformed!);
      return payload;
    },
  };
}
