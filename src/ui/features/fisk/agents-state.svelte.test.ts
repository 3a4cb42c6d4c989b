import { describe, expect, it } from "vitest";
import type { Verdict } from "../../../core/validation/types.ts";
import { AgentsState, identityProblem } from "./agents-state.svelte.ts";
import { NOT_CONNECTED } from "./fisk-api.ts";
import { cardResult, FakeClient, fakeSource, VALID } from "./test-fakes.ts";

function setup(validate?: (text: string) => Promise<Verdict>) {
  const client = new FakeClient();
  const source = fakeSource(client, validate);
  return { client, source, agents: new AgentsState(source) };
}

describe("AgentsState", () => {
  it("says why nothing happens when NATS is not connected", async () => {
    const { source, agents } = setup();
    source.connected = false;
    await agents.find();
    expect(agents.findError).toBe(NOT_CONNECTED);
    agents.discoverName = "alpha";
    await agents.discover();
    expect(agents.discoverError).toBe(NOT_CONNECTED);
  });

  it("lists live agents", async () => {
    const { client, agents } = setup();
    client.listing = { agents: [{ identity: "alpha", instanceId: "i1", version: "0.0.5", endpoints: [] }], otherServices: 2, elapsedMs: 300 };
    await agents.find();
    expect(agents.listing?.agents.map((a) => a.identity)).toEqual(["alpha"]);
    expect(agents.finding).toBe(false);
  });

  it("refuses an identity that cannot be a subject token, before sending anything", async () => {
    const { client, agents } = setup();
    agents.discoverName = "a.b";
    await agents.discover();
    expect(agents.discoverError).toMatch(/^agent identity "a.b" is not valid/);
    expect(client.calls).toEqual([]);
    expect(identityProblem("")).toBe("type an agent identity to discover");
    expect(identityProblem("ok_name-1")).toBeNull();
  });

  it("discovers, selects, checks the reply in the worker, and keeps one entry per agent", async () => {
    const { client, source, agents } = setup();
    client.discoveries.set("alpha", cardResult("alpha", { tools: [{ name: "t", description: "d" }] }, '{"reply":1}'));
    await agents.discover("alpha");
    expect(agents.selected).toBe("alpha");
    expect(agents.selectedEntry).toMatchObject({ verdict: VALID, validation: "done" });
    expect(source.checked).toEqual(['{"reply":1}']);
    await agents.discover("alpha");
    expect(agents.agents).toHaveLength(1);
    expect(agents.withCards).toEqual(["alpha"]);
  });

  it("rediscovers while the last reply is still being checked: the newer card clears gone, and the late verdict is dropped", async () => {
    const checks: ((v: Verdict) => void)[] = [];
    const { client, agents } = setup(() => new Promise<Verdict>((resolve) => checks.push(resolve)));
    client.discoveries.set("alpha", cardResult("alpha", {}, '{"reply":1}'));
    const first = agents.discover("alpha");
    await Promise.resolve();
    await Promise.resolve();
    expect(agents.selectedEntry?.validation).toBe("pending");
    agents.markGone("alpha", "a task found nothing serving it");
    client.discoveries.set("alpha", cardResult("alpha", {}, '{"reply":2}'));
    const second = agents.discover("alpha");
    await Promise.resolve();
    await Promise.resolve();
    expect(client.calls.filter(([name]) => name === "discover")).toHaveLength(2);
    expect(agents.gone).toEqual({});
    expect(agents.pending).toEqual([]);
    checks[0]!({ ...VALID, notes: ["late"] });
    await first;
    expect(agents.selectedEntry).toMatchObject({ validation: "pending" });
    checks[1]!(VALID);
    await second;
    expect(agents.selectedEntry).toMatchObject({ verdict: VALID, validation: "done" });
  });

  it("shows a failed check as such, and leaves an outcome without a reply unchecked", async () => {
    const { client, agents } = setup(() => Promise.reject(new Error("worker gone")));
    client.discoveries.set("alpha", cardResult("alpha"));
    await agents.discover("alpha");
    expect(agents.selectedEntry?.validation).toEqual({ failed: "worker gone" });
    await agents.discover("ghost");
    expect(agents.selectedEntry).toMatchObject({ identity: "ghost", verdict: null, validation: "done" });
    expect(agents.withCards).toEqual(["alpha"]);
  });

  it("compares the first two agents with cards, and forgetting one clears it", async () => {
    const { client, agents } = setup();
    client.discoveries.set("alpha", cardResult("alpha", { tools: [{ name: "a" }, { name: "both" }] }));
    client.discoveries.set("beta", cardResult("beta", { tools: [{ name: "both" }] }));
    await agents.discover("alpha");
    expect(agents.comparison).toBeNull();
    await agents.discover("beta");
    expect([agents.compareLeft, agents.compareRight]).toEqual(["alpha", "beta"]);
    expect(agents.comparison?.map((r) => `${r.name}:${r.presence}`)).toEqual(["a:left", "both:both"]);
    agents.forget("beta");
    expect(agents.compareRight).toBe("");
    expect(agents.comparison).toBeNull();
    expect(agents.selected).toBe("alpha");
  });

  it("marks a discovered agent gone when a listing no longer has it, and back when it does", async () => {
    const { client, agents } = setup();
    client.discoveries.set("alpha", cardResult("alpha"));
    await agents.discover("alpha");
    client.listing = { agents: [], otherServices: 0, elapsedMs: 1 };
    await agents.find();
    expect(agents.gone.alpha?.reason).toBe("not among the live agents $SRV.INFO listed");
    client.listing = { agents: [{ identity: "alpha", instanceId: "i", version: "0", endpoints: [{ name: "tool", subject: "t" }] }], otherServices: 0, elapsedMs: 1 };
    await agents.find();
    expect(agents.gone.alpha).toBeUndefined();
    expect(agents.endpoints.alpha).toEqual({ names: ["tool"], source: "$SRV.INFO (Find agents)" });
  });

  it("hides a discovery problem once the name it was about is changed", async () => {
    const { agents } = setup();
    agents.discoverName = "bad name";
    await agents.discover();
    expect(agents.shownDiscoverError).toMatch(/is not valid/);
    agents.discoverName = "good";
    expect(agents.shownDiscoverError).toBeNull();
  });
});
