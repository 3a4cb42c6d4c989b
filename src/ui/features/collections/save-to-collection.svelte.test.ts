import { describe, expect, it } from "vitest";
import { parseCollection } from "../../../core/harness/index.ts";
import { checkedStore, twoSteps } from "./collections-fakes.ts";
import { NEW_COLLECTION, SaveToCollectionState } from "./save-to-collection.svelte.ts";
import { mcpToolCallRequest, type SavedRequestResult } from "./step-drafts.ts";

const BODY = { transport: "streamable-http", url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer t0ken" } } as const;

function setup(args = '{"message":"hi"}') {
  const store = checkedStore();
  const request = { current: (): SavedRequestResult => mcpToolCallRequest(BODY, "everything", "echo", args) };
  const save = new SaveToCollectionState(store, () => request.current());
  return { store, save, request };
}

describe("SaveToCollectionState", () => {
  it("saves a call to a new collection, then adds the next to the same one", async () => {
    const { store, save } = setup();
    await save.show();
    expect(save.open).toBe(true);
    expect(save.stepName).toBe("echo");
    expect(save.choice).toBe(NEW_COLLECTION);
    save.newName = "smoke";
    await save.save();
    expect(save.error).toBeNull();
    expect(save.notice).toBe('saved step "echo" to "smoke" (1 step); header values that may be credentials are saved as secrets: everything_token');
    const first = store.docs.get("collections/smoke");
    expect(parseCollection(first)).toMatchObject({ ok: true });
    expect(JSON.stringify(first)).not.toContain("t0ken");
    expect(save.choice).toBe("smoke");
    expect(save.names).toEqual(["smoke"]);

    save.stepName = "echo again";
    await save.save();
    const second = store.docs.get("collections/smoke") as ReturnType<typeof twoSteps>;
    expect(second.steps.map((s) => s.name)).toEqual(["echo", "echo again"]);
    expect(Object.keys(second.targets)).toEqual(["everything"]);
  });

  it("refuses a bad or taken new name and a broken request, and writes nothing", async () => {
    const { store, save, request } = setup();
    await store.write("collections", "taken", twoSteps("taken"));
    await save.show();
    save.newName = "../up";
    await save.save();
    expect(save.error).toBe('cannot make a collection named "../up": the name contains a path separator');
    save.newName = "taken";
    await save.save();
    expect(save.error).toBe('a collection named "taken" already exists: choose it from the list to add to it');
    request.current = () => mcpToolCallRequest(BODY, "everything", "echo", "[oops");
    save.newName = "fresh";
    await save.save();
    expect(save.error).toMatch(/^cannot save this request: the arguments are not JSON/);
    expect([...store.docs.keys()]).toEqual(["collections/taken"]);
  });

  it("appends to an existing collection, keeping its steps and secrets", async () => {
    const { store, save } = setup();
    await store.write("collections", "demo", twoSteps());
    await save.show();
    expect(save.names).toEqual(["demo"]);
    save.choice = "demo";
    await save.save();
    const saved = store.docs.get("collections/demo") as ReturnType<typeof twoSteps>;
    expect(saved.steps.map((s) => s.name)).toEqual(["echo", "sum", "echo 2"]);
    expect(Object.keys(saved.secrets ?? {}).sort()).toEqual(["api_token", "everything_token"]);
  });

  it("leaves an invalid stored collection alone, naming its problems", async () => {
    const { store, save } = setup();
    store.docs.set("collections/broken", { name: "broken", targets: {}, environments: {}, steps: [{ name: 3 }] });
    await save.show();
    save.choice = "broken";
    await save.save();
    expect(save.error).toMatch(/^"broken" is not a valid collection, so nothing was added \(fix it in Collections first\): \/steps\/0/);
    expect(store.docs.get("collections/broken")).toEqual({ name: "broken", targets: {}, environments: {}, steps: [{ name: 3 }] });
  });

  it("shows the backend's refusal and a failed listing in its own words", async () => {
    const { store, save } = setup();
    store.failNext.list = new Error("backend unreachable: offline");
    await save.show();
    expect(save.error).toBe("could not list the collections: backend unreachable: offline");
    save.newName = "x";
    store.failNext.write = new Error("the workspace is read-only");
    await save.save();
    expect(save.error).toBe('could not save to "x": the workspace is read-only');
    expect(save.saving).toBe(false);
  });

  it("waits for a request that has to ask, and shows why one could not be described", async () => {
    const store = checkedStore();
    let answer: () => Promise<SavedRequestResult> = async () => mcpToolCallRequest(BODY, "everything", "echo", "{}");
    const save = new SaveToCollectionState(store, () => answer());
    await save.show();
    expect(save.stepName).toBe("echo");
    answer = () => Promise.reject(new Error("backend unreachable: offline"));
    save.newName = "later";
    await save.save();
    expect(save.error).toBe("cannot save this request: backend unreachable: offline");
    expect(store.docs.size).toBe(0);
  });
});
