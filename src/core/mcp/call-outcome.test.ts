import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { outcomeFromError } from "./call-outcome.ts";
import { RELAY_FAILURE_CODE } from "./relay-error.ts";

describe("outcomeFromError", () => {
  it("names a request the relay could not get answered apart from a server's JSON-RPC error", () => {
    const relay = new McpError(RELAY_FAILURE_CODE, "http step failed (HTTP 502): stream broke", { relayFailure: { step: "http", status: 502, body: "bad gateway" } });
    expect(outcomeFromError(relay, undefined)).toMatchObject({ kind: "relay-failure", step: "http", status: 502, body: "bad gateway" });
    const server = new McpError(RELAY_FAILURE_CODE, "a server that happens to use this code", { relayFailure: "not ours" });
    expect(outcomeFromError(server, undefined)).toMatchObject({ kind: "json-rpc-error", code: RELAY_FAILURE_CODE });
  });
});
