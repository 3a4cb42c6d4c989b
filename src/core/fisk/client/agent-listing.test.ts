import { describe, expect, it } from "vitest";
import { listAgents } from "./agent-listing.ts";
import { reply, scriptedDeps, settle } from "./testing/scripted-port.ts";

const info = (name: string, id: string, description = "fisk-ai a2a tool server") => ({
  name,
  id,
  version: "0.0.0",
  metadata: {},
  type: "io.nats.micro.v1.info_response",
  description,
  endpoints: [{ name: "tool", subject: `choria.fisk-ai.tool.${name}`, queue_group: name, metadata: null }],
});

describe("listAgents", () => {
  it("asks $SRV.INFO on a fresh inbox and keeps fisk-ai agents, counting other services, until a stall", async () => {
    const { deps, port, advance } = scriptedDeps();
    let deliver: (m: ReturnType<typeof reply>) => void = () => undefined;
    port.onPublish = (_sent, d) => (deliver = d);
    const listing = listAgents(deps, { stallMs: 100, timeoutMs: 5000 });
    expect(port.sent).toEqual([expect.objectContaining({ subject: "$SRV.INFO", text: "", reply: expect.stringMatching(/^_INBOX\.[0-9A-Za-z]{22}$/) })]);
    deliver(reply(info("zeta", "i2")));
    advance(90);
    deliver(reply(info("alpha", "i1")));
    deliver(reply(info("orders", "i3", "an order service")));
    deliver(reply("not json"));
    advance(99);
    let ended = false;
    void listing.then(() => (ended = true));
    await settle();
    expect(ended).toBe(false);
    advance(1);
    const r = await listing;
    expect(r.agents.map((a) => a.identity)).toEqual(["alpha", "zeta"]);
    expect(r.agents[0]).toEqual({ identity: "alpha", instanceId: "i1", version: "0.0.0", endpoints: [{ name: "tool", subject: "choria.fisk-ai.tool.alpha" }] });
    expect(r.otherServices).toBe(2);
    expect(r.elapsedMs).toBe(190);
    expect(port.subscriptions).toBe(0);
  });

  it("ends at once with nothing when no service exists (503), and at the overall timeout otherwise", async () => {
    const none = scriptedDeps();
    none.port.onPublish = (_s, d) => d(reply("", "_INBOX.x", undefined, 503));
    expect(await listAgents(none.deps)).toEqual({ agents: [], otherServices: 0, elapsedMs: 0 });
    const slow = scriptedDeps();
    const listing = listAgents(slow.deps, { timeoutMs: 1000 });
    slow.advance(1000);
    expect((await listing).elapsedMs).toBe(1000);
  });

  it("stops when aborted, keeping what came so far", async () => {
    const { deps, port } = scriptedDeps();
    port.onPublish = (_s, d) => d(reply(info("a", "1")));
    const controller = new AbortController();
    const listing = listAgents(deps, { signal: controller.signal });
    controller.abort();
    expect((await listing).agents).toHaveLength(1);
  });
});
