import { describe, expect, it } from "vitest";
import { ManualScheduler, manualClock } from "../../../core/env/index.ts";
import { checkedStore, FakeHarness, twoSteps } from "./collections-fakes.ts";
import { CollectionsSession } from "./collections-session.svelte.ts";
import { openInCollections, takeCollectionHandoff } from "./collection-handoff.ts";

function setup() {
  const storage = checkedStore();
  const session = new CollectionsSession({ storage, harness: new FakeHarness(), scheduler: new ManualScheduler(), clock: manualClock() });
  return { storage, session };
}

describe("CollectionsSession", () => {
  it("opens the collection another workbench handed over, once, from the Diff view too", async () => {
    const { storage, session } = setup();
    await storage.write("collections", "recorded", twoSteps("recorded"));
    const loc = { hash: "#/traffic" };
    openInCollections("recorded", loc);
    expect(loc.hash).toBe("#/collections");
    session.view = "diff";
    await session.arrive(takeCollectionHandoff());
    expect(session.view).toBe("collection");
    expect(session.collections.open).toBe("recorded");
    expect(takeCollectionHandoff()).toBeNull();
  });

  it("without a handoff reads the list again and stays on the view it was on", async () => {
    const { storage, session } = setup();
    session.view = "diff";
    await storage.write("collections", "later", twoSteps("later"));
    await session.arrive(null);
    expect(session.collections.names).toEqual(["later"]);
    expect(session.view).toBe("diff");
    await session.collections.choose("later");
    expect(session.view).toBe("collection");
  });
});
