import { describe, expect, it } from "vitest";
import { memoryStore } from "./serve-fakes.ts";
import { ToolkitState } from "./toolkit-state.svelte.ts";

describe("ToolkitState", () => {
  it("starts with the demo toolkit and shows each surface's served set", () => {
    const state = new ToolkitState(memoryStore());
    expect(state.errorCount).toBe(0);
    const nats = state.natsSet.find((e) => e.tool.name === "confirm");
    expect(nats).toMatchObject({ served: false });
    expect(state.mcpSet.find((e) => e.tool.name === "confirm")).toMatchObject({ served: true, reason: "served; each call needs approval" });
  });

  it("reports problems as the text changes, without losing the text", () => {
    const state = new ToolkitState(memoryStore());
    state.text = state.text.replace('"name": "patchbay-demo"', '"name": "bad name"');
    expect(state.toolkit).toBeUndefined();
    expect(state.result.issues[0]).toMatchObject({ pointer: "/name", severity: "error" });
    state.text = "{ not json";
    expect(state.result.issues[0]?.message).toMatch(/^not valid JSON/);
    expect(state.text).toBe("{ not json");
  });

  it("says a file that is not JSON is not JSON, at the root without a bare pointer", () => {
    const state = new ToolkitState(memoryStore());
    const before = state.text;
    state.importText("hello, I am a text file\n", "notes.txt");
    expect(state.error).toBe("notes.txt is not a usable toolkit: not JSON, and not a YAML mapping either (as YAML it is a plain string)");
    state.importText("hello", "kit.json");
    expect(state.error).toMatch(/^kit\.json is not a usable toolkit: not valid JSON: /);
    expect(state.text).toBe(before);
  });

  it("heads the editor with the counts its Problems list shows: errors, warnings, tools left out, duplicates included", () => {
    const state = new ToolkitState(memoryStore());
    const tool = (name: string, extra: object = {}) => ({ name, description: "d", inputSchema: { type: "object" }, run: { builtin: "echo" }, ...extra });
    state.text = JSON.stringify({
      format: "patchbay.toolkit",
      version: 1,
      name: "kit",
      tools: [tool("echo"), tool("echo"), tool("ls", { inputSchema: undefined }), tool("bad", { run: { builtin: "nope" } })],
    });
    expect(state.markers.map((m) => `${m.severity} ${m.pointer}`)).toEqual(["warning /tools/2/inputSchema", "error /tools/3/run/builtin", "error /tools/1/name"]);
    expect(state.headline).toBe("kit: 2 tools (2 left out) · 2 errors · 1 warning");
    state.text = '{"a": 2, "b": }';
    expect(state.markers).toEqual([]);
    expect(state.headline).toBe("not JSON: see Problems");
  });

  it("imports YAML as JSON, refuses a broken file and keeps the current text", () => {
    const state = new ToolkitState(memoryStore());
    const before = state.text;
    state.importText("format: nope\n", "kit.yaml");
    expect(state.text).toBe(before);
    expect(state.error).toContain("kit.yaml is not a usable toolkit: /format");
    state.importText("format: patchbay.toolkit\nversion: 1\nname: y\ntools: []\n", "kit.yml");
    expect(JSON.parse(state.text)).toMatchObject({ name: "y", tools: [] });
    expect(state.notice).toContain("YAML, shown as JSON");
  });

  it("saves to the workspace under a checked name and loads it back", async () => {
    const store = memoryStore();
    const state = new ToolkitState(store);
    state.saveName = "../evil";
    await state.save();
    expect(state.error).toContain("path separator");
    state.saveName = "";
    await state.save();
    expect(store.docs.has("toolkits/patchbay-demo")).toBe(true);
    expect(state.savedNames).toEqual(["patchbay-demo"]);
    state.text = "{}";
    await state.load("patchbay-demo");
    expect(state.toolkit?.name).toBe("patchbay-demo");
    await state.load("missing");
    expect(state.error).toContain('could not load "missing"');
  });

  it("knows the saved name of the editor's toolkit and whether the editor has moved on", async () => {
    const store = memoryStore();
    const state = new ToolkitState(store);
    expect(state.savedAs).toBeNull();
    state.saveName = "kit";
    await state.save();
    expect(state.savedAs).toBe("kit");
    expect(state.unsaved).toBe(false);
    state.text = state.text.replace("patchbay-demo", "other");
    expect(state.unsaved).toBe(true);
    state.resetToDemo();
    expect(state.savedAs).toBeNull();
    expect(state.unsaved).toBe(false);
    await state.load("kit");
    expect(state.savedAs).toBe("kit");
    state.importText('{"format":"patchbay.toolkit","version":1,"name":"z","tools":[]}', "z.json");
    expect(state.savedAs).toBeNull();
  });
});
