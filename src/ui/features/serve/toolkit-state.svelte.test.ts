import { describe, expect, it } from "vitest";
import type { DocumentKind, DocumentStore } from "../../../core/persist/document-store.ts";
import { ToolkitState } from "./toolkit-state.svelte.ts";

function memoryStore(): DocumentStore & { docs: Map<string, unknown> } {
  const docs = new Map<string, unknown>();
  const key = (k: DocumentKind, n: string) => `${k}/${n}`;
  return {
    docs,
    list: async (kind) => [...docs.keys()].filter((k) => k.startsWith(`${kind}/`)).map((k) => ({ name: k.slice(kind.length + 1) })),
    read: async (kind, name) => {
      if (!docs.has(key(kind, name))) throw new Error("not found");
      return structuredClone(docs.get(key(kind, name)));
    },
    write: async (kind, name, data) => void docs.set(key(kind, name), structuredClone(data)),
    remove: async (kind, name) => void docs.delete(key(kind, name)),
  };
}

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
});
