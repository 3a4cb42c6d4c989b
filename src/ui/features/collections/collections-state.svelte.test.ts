import { describe, expect, it } from "vitest";
import { memoryDraftStorage } from "../../../core/persist/drafts.ts";
import { Drafts } from "../../state/drafts.svelte.ts";
import { checkedStore, twoSteps } from "./collections-fakes.ts";
import { checkText, CollectionsState, EDITOR_DRAFT } from "./collections-state.svelte.ts";

const pretty = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

function freshDrafts(): Drafts {
  const d = new Drafts();
  d.use(memoryDraftStorage(), () => 1000);
  return d;
}

function setup() {
  const store = checkedStore();
  const drafts = freshDrafts();
  let switches = 0;
  const state = new CollectionsState(store, drafts, () => switches++);
  return { store, drafts, state, switches: () => switches };
}

describe("checkText", () => {
  it("tells text that is not JSON from a collection with problems, and from a valid one", () => {
    expect(checkText("{ nope")).toEqual({ kind: "syntax" });
    const bad = checkText('{"name": "x", "targets": {}, "environments": {}, "steps": [{"name": "s", "target": "nowhere"}]}');
    expect(bad.kind === "checked" && bad.problems.map((p) => p.pointer)).toContain("/steps/0/target");
    const good = checkText(JSON.stringify(twoSteps()));
    expect(good).toMatchObject({ kind: "checked", problems: [], collection: { name: "demo" } });
  });
});

describe("CollectionsState", () => {
  it("makes a collection, marks it unsaved until saved, and lists it", async () => {
    const { store, state, switches } = setup();
    state.newName = "smoke";
    await state.create();
    expect(state.open).toBe("smoke");
    expect(state.unsaved).toBe(true);
    expect(state.collection).toMatchObject({ name: "smoke", steps: [] });
    expect(switches()).toBe(1);
    await state.save();
    expect(state.error).toBeNull();
    expect(state.unsaved).toBe(false);
    expect(state.names).toEqual(["smoke"]);
    expect(store.docs.get("collections/smoke")).toMatchObject({ name: "smoke" });
    state.newName = "smoke";
    await state.create();
    expect(state.error).toBe('a collection named "smoke" already exists');
    state.newName = "a/b";
    await state.create();
    expect(state.error).toBe('cannot make a collection named "a/b": the name contains a path separator');
  });

  it("shows the checker's problems live with their pointers, as markers too, and keeps the text", async () => {
    const { store, state } = setup();
    await store.write("collections", "demo", twoSteps());
    await state.choose("demo");
    const c = twoSteps();
    state.text = pretty({ ...c, steps: [{ ...c.steps[0]!, target: "elsewhere" }] });
    expect(state.collection).toBeUndefined();
    expect(state.problems[0]).toMatchObject({ pointer: "/steps/0/target" });
    expect(state.markers[0]).toMatchObject({ pointer: "/steps/0/target", severity: "error" });
    state.text = "{ broken";
    expect(state.check.kind).toBe("syntax");
    expect(state.problems).toEqual([]);
    await state.save();
    expect(state.error).toBe('cannot save "demo": the text is not JSON (see Problems)');
    expect(state.text).toBe("{ broken");
  });

  it("shows the backend's refusal of an invalid collection verbatim, and keeps the edits unsaved", async () => {
    const { store, state } = setup();
    await store.write("collections", "demo", twoSteps());
    await state.choose("demo");
    const edited = pretty({ ...twoSteps(), steps: [{ ...twoSteps().steps[0]!, assert: [{ kind: "equals", pointer: "no-slash", value: 1 }] }] });
    state.text = edited;
    await state.save();
    expect(state.error).toMatch(/^the collection is not valid: \/steps\/0\/assert\/0\/pointer: /);
    expect(state.unsaved).toBe(true);
    expect(state.text).toBe(edited);
  });

  it("asks before deleting, and before dropping unsaved edits to open another", async () => {
    const { store, state } = setup();
    await store.write("collections", "a", twoSteps("a"));
    await store.write("collections", "b", twoSteps("b"));
    await state.refresh();
    await state.choose("a");
    state.text = state.text.replace('"hi"', '"changed"');
    await state.choose("b");
    expect(state.confirming).toEqual({ kind: "discard", name: "a", next: "b" });
    expect(state.open).toBe("a");
    state.cancel();
    expect(state.text).toContain('"changed"');
    await state.choose("b");
    await state.confirm();
    expect(state.open).toBe("b");
    expect(state.unsaved).toBe(false);

    state.askDelete();
    expect(state.confirming).toEqual({ kind: "delete", name: "b" });
    expect(store.docs.has("collections/b")).toBe(true);
    await state.confirm();
    expect(store.docs.has("collections/b")).toBe(false);
    expect(state.open).toBeNull();
    expect(state.names).toEqual(["a"]);
  });

  it("brings back the open collection, its edits and the unsaved mark after a reload", async () => {
    const store = checkedStore();
    const drafts = freshDrafts();
    await store.write("collections", "demo", twoSteps());
    const before = new CollectionsState(store, drafts);
    await before.choose("demo");
    const saved = before.text;
    const edited = saved.replace('"hi"', '"edited"');
    before.text = edited;
    drafts.save(EDITOR_DRAFT, { open: before.open, text: before.text, savedText: before.savedText, newName: "" });
    const after = new CollectionsState(store, drafts);
    expect(after.open).toBe("demo");
    expect(after.text).toBe(edited);
    expect(after.savedText).toBe(saved);
    expect(after.unsaved).toBe(true);
  });

  it("reads the open collection again when a step was saved to it elsewhere, unless it has edits", async () => {
    const { store, state } = setup();
    await store.write("collections", "demo", twoSteps());
    await state.choose("demo");
    const c = twoSteps();
    await store.write("collections", "demo", { ...c, steps: [...c.steps, { ...c.steps[0]!, name: "third" }] });
    await state.reload();
    expect(state.collection?.steps.map((s) => s.name)).toEqual(["echo", "sum", "third"]);
    state.text = state.text.replace('"hi"', '"mine"');
    await store.write("collections", "demo", c);
    await state.reload();
    expect(state.text).toContain('"mine"');
    expect(state.unsaved).toBe(true);
  });

  it("opens a collection saved elsewhere by name, asking first over unsaved edits", async () => {
    const { store, state } = setup();
    await store.write("collections", "a", twoSteps("a"));
    await state.choose("a");
    await store.write("collections", "recorded", twoSteps("recorded"));
    await state.openNamed("recorded");
    expect(state.open).toBe("recorded");
    expect(state.collection?.name).toBe("recorded");
    await state.openNamed("gone");
    expect(state.error).toBe('there is no collection named "gone" in the workspace');
    expect(state.open).toBe("recorded");
    state.text = state.text.replace('"hi"', '"mine"');
    await state.openNamed("a");
    expect(state.confirming).toEqual({ kind: "discard", name: "recorded", next: "a" });
  });

  it("says what failed when the workspace cannot be read, and loses nothing", async () => {
    const { store, state } = setup();
    await state.choose("missing");
    expect(state.error).toBe('could not open "missing": no collections document "missing"');
    expect(state.open).toBeNull();
    store.failNext.list = new Error("backend unreachable");
    await state.refresh();
    expect(state.error).toBe("could not list the collections: backend unreachable");
  });
});
