import { describe, expect, it } from "vitest";
import { encodeEnvelope } from "../../src/core/persist/envelope.ts";
import { DEMO_TOOLKIT } from "../../src/core/serving/demo-toolkit.ts";
import { toolkitToFile } from "../../src/core/serving/toolkit/toolkit-text.ts";
import { readToolkitFile } from "./toolkit-file.ts";

const file = toolkitToFile(DEMO_TOOLKIT);
const saved = (data: unknown, version = 1) => {
  const envelope = JSON.parse(encodeEnvelope("toolkits", data, 0)) as Record<string, unknown>;
  return JSON.stringify({ ...envelope, version });
};

describe("readToolkitFile", () => {
  it("reads a bare toolkit in JSON or YAML", () => {
    expect(readToolkitFile(JSON.stringify(file)).toolkit?.name).toBe("patchbay-demo");
    expect(readToolkitFile("format: patchbay.toolkit\nversion: 1\nname: y\ntools: []\n", "yaml").toolkit?.name).toBe("y");
  });

  it("reads a saved workspace document, with issue pointers into the file", () => {
    const read = readToolkitFile(encodeEnvelope("toolkits", file, 0));
    expect(read.toolkit?.tools.map((t) => t.name)).toEqual(DEMO_TOOLKIT.tools.map((t) => t.name));
    const broken = readToolkitFile(saved({ ...file, tools: [...(file.tools as unknown[]), { name: "bad", run: { command: [] } }] }));
    expect(broken.toolkit).toBeDefined();
    expect(broken.issues.map((i) => i.pointer)).toContain("/data/tools/7/run/command");
    expect(readToolkitFile(encodeEnvelope("toolkits", { hello: 1 }, 0)).issues[0]?.pointer).toBe("/data/format");
  });

  it.each<[string, string, RegExp]>([
    ["a newer envelope", saved(file, 2), /^kit\.json is patchbay\.toolkits version 2, newer than this Patchbay understands \(1\)$/],
    ["an envelope without a version", JSON.stringify({ format: "patchbay.toolkits", data: file }), /has no valid version number/],
    ["another kind of document", encodeEnvelope("connections", [], 0), /^kit\.json is a saved connections document, not a toolkit/],
    ["a saved document that holds no toolkit", encodeEnvelope("toolkits", { hello: 1 }, 0), /^must be "patchbay\.toolkit"$/],
    ["an unknown format", JSON.stringify({ format: "patchbay.other", data: {} }), /^must be "patchbay\.toolkit"$/],
    ["not JSON", "{ nope", /not valid JSON/],
  ])("refuses %s with a sentence", (_label, text, message) => {
    const read = readToolkitFile(text, "json", "kit.json");
    expect(read.toolkit).toBeUndefined();
    expect(read.issues[0]?.severity).toBe("error");
    expect(read.issues[0]?.message).toMatch(message);
  });

  it("refuses an oversized file before parsing it", () => {
    const read = readToolkitFile(`{"format":"patchbay.toolkits","data":"${"x".repeat(1_000_001)}"}`);
    expect(read.issues[0]?.message).toMatch(/a toolkit may have at most/);
  });
});
