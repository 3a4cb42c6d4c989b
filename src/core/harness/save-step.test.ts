import { describe, expect, it } from "vitest";
import { appendStep, DEFAULT_ASSERTIONS, emptyCollection, uniqueName } from "./save-step.ts";

const everything = { protocol: "mcp" as const, url: "http://127.0.0.1:3001/mcp" };
const call = (name: string) => ({ protocol: "mcp" as const, method: "tools/call", params: { name, arguments: {} } });

describe("saving a workbench request as a step", () => {
  it("adds the target once, reuses it for a spec equal in any key order, and names steps uniquely", () => {
    let c = appendStep(emptyCollection("smoke"), { name: "echo", target: everything, targetHint: "Everything Server", action: call("echo") });
    c = appendStep(c, { name: "echo", target: { url: everything.url, protocol: "mcp" }, targetHint: "other", action: call("echo") });
    expect(Object.keys(c.targets)).toEqual(["everything-server"]);
    expect(c.steps.map((s) => [s.name, s.target])).toEqual([["echo", "everything-server"], ["echo 2", "everything-server"]]);
    expect(c.steps[0]?.assert).toEqual(DEFAULT_ASSERTIONS);
  });

  it("gives a different spec with the same hint a new target name, and a blank hint or name a fallback", () => {
    let c = appendStep(emptyCollection("x"), { name: " ", target: everything, targetHint: "!!!", action: call("a") });
    c = appendStep(c, { name: "b", target: { protocol: "mcp", command: "npx server" }, targetHint: "!!!", action: call("b") });
    expect(Object.keys(c.targets)).toEqual(["target", "target-2"]);
    expect(c.steps[0]?.name).toBe("step");
  });

  it("leaves the collection it was given unchanged", () => {
    const before = emptyCollection("x");
    appendStep(before, { name: "a", target: everything, targetHint: "e", action: call("a") });
    expect(before.steps).toEqual([]);
    expect(before.targets).toEqual({});
  });

  it("uniqueName counts past taken names", () => {
    expect(uniqueName("a", new Set(["a", "a 2"]))).toBe("a 3");
  });
});
