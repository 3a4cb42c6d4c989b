import { describe, expect, it } from "vitest";
import { httpFrameHeaders, WITHHELD } from "./http-headers.ts";

describe("HTTP frame headers", () => {
  it("keeps names lower-cased and values, withholding credentials", () => {
    const h = new Headers({ "Content-Type": "application/json", "Mcp-Session-Id": "abc", Authorization: "Bearer s3cret" });
    expect(httpFrameHeaders(h)).toEqual({ "content-type": ["application/json"], "mcp-session-id": ["abc"], authorization: [WITHHELD] });
    expect(JSON.stringify(httpFrameHeaders({ cookie: "a=b" }))).not.toContain("a=b");
  });

  it("takes records and pairs, adds extras, and gives undefined for none", () => {
    expect(httpFrameHeaders([["Accept", "text/event-stream"]], { ":method": "POST" })).toEqual({ accept: ["text/event-stream"], ":method": ["POST"] });
    expect(httpFrameHeaders({ "X-A": "1" })).toEqual({ "x-a": ["1"] });
    expect(httpFrameHeaders(undefined)).toBeUndefined();
    expect(httpFrameHeaders({})).toBeUndefined();
  });
});
