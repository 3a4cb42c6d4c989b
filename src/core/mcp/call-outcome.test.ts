import { describe, expect, it } from "vitest";
import { outcomeFromError } from "./call-outcome.ts";
import { RELAY_FAILURE_CODE, relayFailureOf } from "./relay-error.ts";
import { cancelled, closedBefore, refusal, timedOut } from "./request-failure.ts";

describe("outcomeFromError", () => {
  it("names a request the relay could not get answered apart from a server's JSON-RPC error", () => {
    const data = { relayFailure: { step: "http", status: 502, body: "bad gateway" } };
    const relay = refusal("tools/call", { code: RELAY_FAILURE_CODE, message: "http step failed (HTTP 502): stream broke", data }, relayFailureOf(data));
    expect(relay.message).toBe("tools/call never got an answer from the server: http step failed (HTTP 502): stream broke");
    expect(outcomeFromError(relay)).toEqual({ kind: "relay-failure", step: "http", message: "http step failed (HTTP 502): stream broke", status: 502, body: "bad gateway" });
    const server = refusal("tools/call", { code: RELAY_FAILURE_CODE, message: "a server that happens to use this code", data: { relayFailure: "not ours" } }, relayFailureOf({ relayFailure: "not ours" }));
    expect(outcomeFromError(server)).toMatchObject({ kind: "json-rpc-error", code: RELAY_FAILURE_CODE, data: { relayFailure: "not ours" } });
  });

  it("keeps the time waited, the reason given and the close", () => {
    expect(outcomeFromError(timedOut("tools/call", 250))).toEqual({ kind: "timeout", timeoutMs: 250 });
    expect(outcomeFromError(cancelled("tools/call", "stop now"))).toEqual({ kind: "cancelled", reason: "stop now" });
    expect(outcomeFromError(closedBefore("tools/call"))).toMatchObject({ kind: "connection-closed" });
    expect(() => outcomeFromError(new TypeError("a bug"))).toThrow("a bug");
  });
});
