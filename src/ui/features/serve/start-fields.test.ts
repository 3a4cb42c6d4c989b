import { describe, expect, it } from "vitest";
import { memoryStore } from "./serve-fakes.ts";
import { failure, toolkitForStart, wholeField } from "./start-fields.ts";
import { ToolkitState } from "./toolkit-state.svelte.ts";

describe("start fields", () => {
  it("sends the editor's toolkit as parsed JSON, and refuses one with errors naming the first", () => {
    const kit = new ToolkitState(memoryStore());
    const ok = toolkitForStart(kit);
    expect(ok).toMatchObject({ body: { name: "patchbay-demo" } });
    kit.text = kit.text.replace('"name": "patchbay-demo"', '"name": "bad name"');
    const bad = toolkitForStart(kit);
    expect("problem" in bad && bad.problem).toMatch(/^Not started: the toolkit in the editor has an error; fix it first\. The first: \/name: /);
    kit.text = "{";
    expect("problem" in toolkitForStart(kit)).toBe(true);
  });

  it("reads whole numbers in range, empty as the default, and says what is wrong otherwise", () => {
    expect(wholeField(" 0 ", "The port", 0, 65_535)).toEqual({ value: 0 });
    expect(wholeField("", "The port", 0, 65_535)).toEqual({});
    expect(wholeField("70000", "The port", 0, 65_535).problem).toBe('The port must be a whole number from 0 to 65535, not "70000".');
    expect(wholeField("1.5", "Concurrency", 1, 64).problem).toMatch(/whole number/);
    expect(wholeField("-1", "Concurrency", 1, 64).problem).toMatch(/whole number/);
  });

  it("turns an error into one sentence", () => {
    expect(failure("Could not start", new Error("port 7421 is in use"))).toBe("Could not start: port 7421 is in use.");
    expect(failure("Could not start", new Error("stop it first."))).toBe("Could not start: stop it first.");
  });
});
