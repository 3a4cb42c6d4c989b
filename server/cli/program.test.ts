import { describe, expect, it } from "vitest";
import { programName } from "./program.ts";

const BIN = "/home/ada/patchbay/bin/patchbay.mjs";

describe("programName", () => {
  it("names a linked `patchbay` on PATH by that name", () => {
    expect(programName("/usr/local/bin/patchbay", "/tmp", BIN)).toBe("patchbay");
  });

  it("names the entry relative to the clone's root when run there, absolute from a subfolder", () => {
    expect(programName("/home/ada/patchbay/bin/patchbay.mjs", "/home/ada/patchbay", BIN)).toBe("node bin/patchbay.mjs");
    expect(programName(BIN, "/home/ada/patchbay/server", BIN)).toBe(`node ${BIN}`);
  });

  it("names the absolute path from outside the clone, whatever script started the process", () => {
    expect(programName("/opt/node_modules/vitest/vitest.mjs", "/tmp/work", BIN)).toBe(`node ${BIN}`);
    expect(programName(undefined, "/", BIN)).toBe(`node ${BIN}`);
  });

  it("never names a bare `npx patchbay`", () => {
    for (const cwd of ["/", "/home/ada/patchbay", "/tmp"]) expect(programName("/x/y.js", cwd, BIN)).not.toMatch(/npx/);
  });
});
