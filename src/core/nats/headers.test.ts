import { describe, expect, it } from "vitest";
import { rowsToHeaders } from "./headers.ts";

describe("rowsToHeaders", () => {
  it("keeps repeated names in order and skips blank rows", () => {
    const r = rowsToHeaders([
      { name: "X-Trace", value: "a" },
      { name: "", value: "" },
      { name: "X-Trace", value: "b" },
      { name: "Nats-Msg-Id", value: "1" },
    ]);
    expect(r).toEqual({ ok: true, headers: { "X-Trace": ["a", "b"], "Nats-Msg-Id": ["1"] } });
  });

  it("returns undefined headers when every row is blank", () => {
    expect(rowsToHeaders([{ name: " ", value: "" }])).toEqual({ ok: true, headers: undefined });
  });

  it.each([
    [{ name: "", value: "x" }, /row 1 has a value but no name/],
    [{ name: "Bad Name", value: "x" }, /header name "Bad Name"/],
    [{ name: "X:Y", value: "x" }, /header name "X:Y"/],
    [{ name: "X", value: "a\r\nInjected: 1" }, /cannot contain a line break/],
  ])("refuses %o", (row, message) => {
    const r = rowsToHeaders([row]);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(message);
  });
});
