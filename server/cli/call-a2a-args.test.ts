import { describe, expect, it } from "vitest";
import { parseCallA2aArgs } from "./call-a2a.ts";
import { CallUsageError } from "./call-options.ts";

describe("call a2a's options", () => {
  it("--token-env sends the variable's token as a bearer and never takes it from the command line", () => {
    const parsed = parseCallA2aArgs(["http://a.test", "hi", "--token-env", "A2A_TOKEN"], { A2A_TOKEN: " t0ken " });
    expect(parsed.headers).toEqual({ Authorization: "Bearer t0ken" });
    expect(JSON.stringify(parsed)).not.toContain("A2A_TOKEN");
  });

  it("refuses an unset variable by its name, and a bad header or timeout in the shared words", () => {
    expect(() => parseCallA2aArgs(["http://a.test", "hi", "--token-env", "NOPE"], {})).toThrow(new CallUsageError("--token-env NOPE: the environment variable NOPE is not set or empty"));
    expect(() => parseCallA2aArgs(["http://a.test", "hi", "-H", "novalue"])).toThrow(/-H needs "Name: value"/);
    expect(() => parseCallA2aArgs(["http://a.test", "hi", "-H", "bad name: v"])).toThrow(/is not a header name/);
    expect(() => parseCallA2aArgs(["http://a.test", "hi", "--timeout", "5"])).toThrow("--timeout must be milliseconds from 100 to 3600000");
  });
});
