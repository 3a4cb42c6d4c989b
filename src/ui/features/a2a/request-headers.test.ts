import { describe, expect, it } from "vitest";
import { redactFrame, requestFormHeaders, requestHeaders, shownHeaders } from "./request-headers.ts";

describe("request headers", () => {
  it("joins rows and credentials, naming which are secrets", () => {
    const out = requestHeaders([{ name: "X-Trace", value: "1" }, { name: "X-Session-Token", value: "abc" }, { name: "", value: "" }], { bearer: "tok", apiKeyName: "X-Key-Name", apiKeyValue: "k" });
    expect(out).toEqual({ ok: true, headers: { "X-Trace": "1", "X-Session-Token": "abc", Authorization: "Bearer tok", "X-Key-Name": "k" }, secret: ["x-session-token", "authorization", "x-key-name"] });
  });

  it("names the bad row or credential", () => {
    expect(requestHeaders([{ name: "", value: "v" }])).toEqual({ ok: false, error: "header row 1 has a value but no name" });
    expect(requestHeaders([{ name: "a b", value: "v" }])).toMatchObject({ ok: false, error: expect.stringContaining('"a b"') });
    expect(requestHeaders([{ name: "a", value: "x\ny" }])).toEqual({ ok: false, error: 'header "a" holds a line break' });
    expect(requestHeaders([], { bearer: "a b", apiKeyName: "", apiKeyValue: "" })).toMatchObject({ ok: false });
    expect(requestHeaders([], { bearer: "", apiKeyName: "", apiKeyValue: "k" })).toEqual({ ok: false, error: "the API key needs a header name (X-API-Key, say)" });
  });

  it("redacts the named headers of a frame, whatever their case", () => {
    const frame = { channel: "a2a-http" as const, direction: "out" as const, target: "t", bytes: new Uint8Array(), headers: { "x-key-name": ["k"], accept: ["*/*"] } };
    expect(redactFrame(frame, ["X-Key-Name"]).headers).toEqual({ "x-key-name": ["[redacted]"], accept: ["*/*"] });
    expect(redactFrame(frame, [])).toBe(frame);
  });

  it("shows secrets as set, and leaves A2A-Version to Compose on requests", () => {
    expect(shownHeaders({ Authorization: "Bearer x", "X-Api-Token": "y", Accept: "a" })).toEqual([["Authorization", "[set, not shown]"], ["X-Api-Token", "[set, not shown]"], ["Accept", "a"]]);
    expect(requestFormHeaders({ "a2a-version": "1.0", "X-A": "1" })).toEqual({ "X-A": "1" });
  });
});
