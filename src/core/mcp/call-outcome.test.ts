import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { outcomeFromError } from "./call-outcome.ts";
import { RELAY_FAILURE_CODE } from "./relay-error.ts";
import { type McpRequestError, requestFailure } from "./request-failure.ts";

describe("outcomeFromError", () => {
  it("names a request the relay could not get answered apart from a server's JSON-RPC error", () => {
    const relay = new McpError(RELAY_FAILURE_CODE, "http step failed (HTTP 502): stream broke", { relayFailure: { step: "http", status: 502, body: "bad gateway" } });
    expect(outcomeFromError(relay, undefined)).toMatchObject({ kind: "relay-failure", step: "http", status: 502, body: "bad gateway" });
    const server = new McpError(RELAY_FAILURE_CODE, "a server that happens to use this code", { relayFailure: "not ours" });
    expect(outcomeFromError(server, undefined)).toMatchObject({ kind: "json-rpc-error", code: RELAY_FAILURE_CODE });
  });
});

describe("requestFailure", () => {
  it("names a request the relay could not get answered, not as the server's refusal", () => {
    const relay = new McpError(RELAY_FAILURE_CODE, "http step failed (HTTP 502): stream broke", { relayFailure: { step: "http", status: 502 } });
    const failure = requestFailure("resources/read", relay, undefined) as McpRequestError;
    expect(failure.kind).toBe("relay-failure");
    expect(failure.message).toBe("resources/read never got an answer from the server: http step failed (HTTP 502): stream broke");
    expect((requestFailure("resources/read", new McpError(-32602, "bad uri"), undefined) as McpRequestError).kind).toBe("json-rpc-error");
  });
});
