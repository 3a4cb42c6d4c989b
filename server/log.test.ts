import { describe, expect, it } from "vitest";
import { formatLogLine, lineLogger } from "./log.ts";

describe("log lines", () => {
  it("formats level, message and fields, quoting values with spaces", () => {
    expect(formatLogLine("info", "backend listening", { url: "http://127.0.0.1:1/", note: "a b", n: 3, skip: undefined })).toBe(
      '[patchbay] info  backend listening url=http://127.0.0.1:1/ note="a b" n=3\n',
    );
  });

  it("drops lines below the minimum level", () => {
    const lines: string[] = [];
    const log = lineLogger((l) => lines.push(l), "info");
    log.debug("hidden");
    log.info("shown");
    log.error("also shown");
    expect(lines.map((l) => l.trim())).toEqual(["[patchbay] info  shown", "[patchbay] error also shown"]);
  });
});
