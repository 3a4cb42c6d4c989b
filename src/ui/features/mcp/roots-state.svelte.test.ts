import { describe, expect, it } from "vitest";
import { RootsState, rootsFromRows } from "./roots-state.svelte.ts";

describe("rootsFromRows", () => {
  it("takes file:// rows, skips blank ones, and names every bad row", () => {
    expect(rootsFromRows([{ uri: " file:///a ", name: "A" }, { uri: "", name: "" }, { uri: "file:///b", name: "" }])).toEqual({
      ok: true,
      roots: [{ uri: "file:///a", name: "A" }, { uri: "file:///b" }],
    });
    expect(rootsFromRows([{ uri: "https://example.com", name: "" }, { uri: "", name: "orphan" }, { uri: "file:///a", name: "" }, { uri: "file:///a", name: "" }])).toEqual({
      ok: false,
      errors: {
        0: 'Root 1: "https://example.com" is not a file:// URI. MCP allows only file:// URIs as roots.',
        1: "Root 2 has a name but no URI.",
        3: "Root 4 repeats file:///a.",
      },
    });
    expect(rootsFromRows([{ uri: "file://[bad", name: "" }])).toEqual({ ok: false, errors: { 0: 'Root 1: "file://[bad" is not a valid URI.' } });
  });
});

describe("RootsState", () => {
  it("applies a valid list, answers it, and announces a change only while attached and only when it differs", async () => {
    const state = new RootsState();
    let sent = 0;
    state.rows = [{ uri: "file:///work", name: "work" }];
    await state.apply();
    expect(state.status).toBe("1 root(s) saved; they are offered when you connect.");
    await expect(state.handle()).resolves.toEqual([{ uri: "file:///work", name: "work" }]);

    state.attach(async () => void sent++);
    await state.apply();
    expect(state.status).toBe("No change to the roots.");
    state.addRow();
    state.rows[1] = { uri: "file:///more", name: "" };
    await state.apply();
    expect(sent).toBe(1);
    expect(state.status).toBe("2 root(s) applied; sent notifications/roots/list_changed.");

    state.attach(() => Promise.reject(new Error("closed")));
    state.removeRow(1);
    await state.apply();
    expect(state.status).toBe("1 root(s) applied, but notifications/roots/list_changed could not be sent: closed");
  });

  it("keeps the rows and the previous answer when a row is invalid", async () => {
    const state = new RootsState();
    state.rows = [{ uri: "file:///ok", name: "" }];
    await state.apply();
    state.rows = [{ uri: "C:\\work", name: "win" }];
    await state.apply();
    expect(state.errors).toEqual({ 0: 'Root 1: "C:\\work" is not a file:// URI. MCP allows only file:// URIs as roots.' });
    expect(state.rows).toEqual([{ uri: "C:\\work", name: "win" }]);
    await expect(state.handle()).resolves.toEqual([{ uri: "file:///ok" }]);
  });
});
