import { describe, expect, it } from "vitest";
import { sinkLogger } from "../../env/defaults.ts";
import type { DiscoveryOutcome, DiscoveryResult } from "../../fisk/client/discovery.ts";
import type { ReplySetResult } from "../../fisk/client/reply-set.ts";
import type { CallOptions, ToolCallResult } from "../../fisk/client/tool-call.ts";
import { toolOutcome } from "../../fisk/client/tool-outcome.ts";
import type { AgentCard, ToolDescriptor } from "../../fisk/codec/types-common.ts";
import { DEMO_TOOLKIT } from "../demo-toolkit.ts";
import { connectHarness, firstText } from "../mcp/test-harness.ts";
import { FiskBridge, type BridgePeer } from "./fisk-bridge.ts";

const tool = (name: string): ToolDescriptor => ({ name, description: `does ${name}`, input_schema: { type: "object", properties: { n: { type: "integer" } } }, behavior: { read_only: true } });
const cardOf = (...tools: ToolDescriptor[]): DiscoveryOutcome => ({ kind: "card", card: { name: "x", version: "1", protocols: [], tools } as unknown as AgentCard, generation: "gen2", evidence: [] });
const NS = "io.choria.fisk-ai.v1";

/** A scripted pair of agents: what discovery answers per identity, and every call made. */
function fakePeer(cards: Record<string, DiscoveryOutcome>) {
  const calls: { identity: string; tool: string; input: Record<string, unknown> | null; opts?: CallOptions }[] = [];
  let discoveries = 0;
  let reply: (tool: string) => ReplySetResult = (name) => {
    const last = { at: 0, message: { subject: "_INBOX.x", data: new Uint8Array(0) }, disposition: "terminal" as const, final: true, protocol: `${NS}.tool.reply`, value: { protocol: `${NS}.tool.reply`, output: `ran ${name}` } };
    return { entries: [last], end: { kind: "terminal", entry: last }, gaps: 0, elapsedMs: 1 };
  };
  const peer: BridgePeer = {
    async discover(identity): Promise<DiscoveryResult> {
      discoveries++;
      await Promise.resolve();
      return { identity, subject: `choria.fisk-ai.discovery.${identity}`, requestText: "", rttMs: 1, outcome: cards[identity] ?? { kind: "no-such-agent" } };
    },
    async callTool(identity, name, input, opts): Promise<ToolCallResult> {
      calls.push({ identity, tool: name, input, ...(opts ? { opts } : {}) });
      const set = reply(name);
      // The real client hands each entry over as it arrives, before the call ends.
      for (const entry of set.entries) opts?.onEntry?.(entry);
      return { subject: `choria.fisk-ai.tool.${identity}`, request: "r", requestText: "", set, outcome: toolOutcome(set) };
    },
  };
  return { peer, calls, cards, discoveries: () => discoveries, answer: (f: (tool: string) => ReplySetResult) => (reply = f) };
}

const logs: string[] = [];
const logger = sinkLogger((level, message) => logs.push(`${level} ${message}`));

describe("FiskBridge", () => {
  it("discovers, names and calls each tool on its own agent by its own name, arguments untouched", async () => {
    const fake = fakePeer({ a: cardOf(tool("dup"), tool("solo")), b: cardOf(tool("dup")) });
    const bridge = new FiskBridge({ peer: fake.peer, config: { identities: ["a", "b"] }, logger });
    await bridge.refresh();
    expect(bridge.tools().map((t) => t.name)).toEqual(["a_dup", "b_dup", "solo"]);
    const result = await bridge.call("b_dup", { n: "not a number" });
    expect(result).toMatchObject({ isError: false, content: [{ text: "ran dup" }] });
    expect(fake.calls).toEqual([{ identity: "b", tool: "dup", input: { n: "not a number" }, opts: {} }]);
  });

  it("shares one discovery between concurrent refreshes", async () => {
    const fake = fakePeer({ a: cardOf(tool("t")) });
    const bridge = new FiskBridge({ peer: fake.peer, config: { identities: ["a"] }, logger });
    await Promise.all([bridge.refresh(), bridge.refresh(), bridge.refresh()]);
    expect(fake.discoveries()).toBe(1);
  });

  it("tells listeners when the tool set changes, and only then", async () => {
    const fake = fakePeer({ a: cardOf(tool("t")) });
    const bridge = new FiskBridge({ peer: fake.peer, config: { identities: ["a"] }, logger });
    let changes = 0;
    bridge.onChange(() => changes++);
    await bridge.refresh();
    await bridge.refresh();
    expect(changes).toBe(1);
    fake.cards.a = cardOf(tool("t"), tool("u"));
    await bridge.refresh();
    expect(changes).toBe(2);
    expect(bridge.tools().map((t) => t.name)).toEqual(["t", "u"]);
  });

  it("keeps an agent's last tools while it does not answer discovery, once warned", async () => {
    const fake = fakePeer({ a: cardOf(tool("t")) });
    const bridge = new FiskBridge({ peer: fake.peer, config: { identities: ["a"] }, logger });
    await bridge.refresh();
    delete fake.cards.a;
    logs.length = 0;
    await bridge.refresh();
    await bridge.refresh();
    expect(bridge.tools().map((t) => t.name)).toEqual(["t"]);
    expect(logs.filter((l) => l.includes("keeping its last tools"))).toHaveLength(1);
    expect(bridge.plan.errors).toEqual([]);
  });

  it("an agent never discovered is an error of the plan, and contributes nothing", async () => {
    const fake = fakePeer({ a: cardOf(tool("t")) });
    const bridge = new FiskBridge({ peer: fake.peer, config: { identities: ["a", "ghost"] }, logger });
    const plan = await bridge.refresh();
    expect(plan.errors).toEqual([{ identity: "ghost", message: expect.stringContaining("no agent answers discovery on choria.fisk-ai.discovery.ghost") }]);
    expect(bridge.tools().map((t) => t.name)).toEqual(["t"]);
  });

  it("a tool the agent no longer has: the call says so and the list is looked at again", async () => {
    const fake = fakePeer({ a: cardOf(tool("t")) });
    const bridge = new FiskBridge({ peer: fake.peer, config: { identities: ["a"] }, logger });
    await bridge.refresh();
    fake.cards.a = cardOf();
    fake.answer(() => {
      const last = { at: 0, message: { subject: "_INBOX.x", data: new Uint8Array(0) }, disposition: "terminal" as const, final: true, protocol: `${NS}.tool.reply`, value: { protocol: `${NS}.tool.reply`, is_error: true, output: 'tool "t" is not available' } };
      return { entries: [last], end: { kind: "terminal", entry: last }, gaps: 0, elapsedMs: 1 };
    });
    const before = fake.discoveries();
    expect(await bridge.call("t", {})).toMatchObject({ isError: true, content: [{ text: 'tool "t" is not available' }] });
    await bridge.refresh();
    expect(fake.discoveries()).toBeGreaterThan(before);
    expect(bridge.tools()).toEqual([]);
    expect(await bridge.call("t", {})).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('Unknown tool "t"') }] });
  });

  it("passes the call's signal and idle bound to the client", async () => {
    const fake = fakePeer({ a: cardOf(tool("t")) });
    const bridge = new FiskBridge({ peer: fake.peer, config: { identities: ["a"] }, logger, idleMs: 500, allowShortIdle: true });
    await bridge.refresh();
    const stop = new AbortController();
    await bridge.call("t", {}, stop.signal);
    expect(fake.calls[0]!.opts).toEqual({ signal: stop.signal, idleMs: 500, allowShortIdle: true });
  });
});

/** A reply set: running-tool statuses (a bare keepalive where `block` has no progress), then the reply. */
function runningSet(blocks: readonly Record<string, unknown>[]): ReplySetResult {
  const entry = (at: number, protocol: string, value: Record<string, unknown>, disposition: "event" | "terminal") => ({
    at,
    message: { subject: "_INBOX.x", data: new Uint8Array(0) },
    disposition,
    final: disposition === "terminal",
    protocol,
    value: { protocol, ...value },
  });
  const statuses = blocks.map((block, i) => entry(10_000 * (i + 1), `${NS}.event.status`, { block: { phase: "running-tool", ...block } }, "event"));
  const last = entry(10_000 * (blocks.length + 1), `${NS}.tool.reply`, { output: "done" }, "terminal");
  return { entries: [...statuses, last], end: { kind: "terminal", entry: last }, gaps: 0, elapsedMs: 1 };
}

describe("a bridged call's progress", () => {
  const heard = async (blocks: readonly Record<string, unknown>[]) => {
    const fake = fakePeer({ a: cardOf(tool("slow")) });
    fake.answer(() => runningSet(blocks));
    const bridge = new FiskBridge({ peer: fake.peer, config: { identities: ["a"] }, logger });
    await bridge.refresh();
    const said: [number, number | undefined, string][] = [];
    await bridge.call("slow", {}, undefined, (progress, total, message) => said.push([progress, total, message]));
    return said;
  };

  it("counts the tool's keepalives, each above the last, with how long it has run", async () => {
    expect(await heard([{}, {}, {}])).toEqual([
      [1, undefined, "slow is still running on a (10 s)"],
      [2, undefined, "slow is still running on a (20 s)"],
      [3, undefined, "slow is still running on a (30 s)"],
    ]);
  });

  it("passes on the tool's own progress, leaving out what does not rise and the bare keepalives beside it", async () => {
    expect(await heard([{ progress: 1, total: 4, message: "one of four" }, {}, { progress: 1 }, { progress: 3, total: 4 }])).toEqual([
      [1, 4, "one of four"],
      [3, 4, "slow on a: 3 of 4"],
    ]);
  });

  it("counts the tool's own progress on from the keepalives heard before it, total and all", async () => {
    expect(await heard([{}, {}, { progress: 1, total: 2, message: "1 of 2 s" }, { progress: 2, total: 2, message: "2 of 2 s" }])).toEqual([
      [1, undefined, "slow is still running on a (10 s)"],
      [2, undefined, "slow is still running on a (20 s)"],
      [3, 4, "1 of 2 s"],
      [4, 4, "2 of 2 s"],
    ]);
  });

  it("asks nothing of the client when nobody listens for progress", async () => {
    const fake = fakePeer({ a: cardOf(tool("slow")) });
    const bridge = new FiskBridge({ peer: fake.peer, config: { identities: ["a"] }, logger });
    await bridge.refresh();
    await bridge.call("slow", {});
    expect(fake.calls[0]!.opts).toEqual({});
  });
});

describe("the MCP surface with a bridge (in-memory SDK client)", () => {
  it("lists bridged tools after the toolkit's, prefixed where a toolkit tool has the name, with hints from the peer's behaviour, and calls them", async () => {
    const fake = fakePeer({ peer: cardOf(tool("echo"), tool("stream_info")) });
    const bridge = new FiskBridge({ peer: fake.peer, config: { identities: ["peer"] }, localNames: DEMO_TOOLKIT.tools.map((t) => t.name), logger });
    await bridge.refresh();
    const h = await connectHarness({ bridge, fixtures: false });
    try {
      const { tools } = await h.client.listTools();
      expect(tools.map((t) => t.name)).toEqual([...DEMO_TOOLKIT.tools.filter((t) => !t.tags?.includes("ai:deny")).map((t) => t.name), "peer_echo", "stream_info"]);
      expect(tools.find((t) => t.name === "stream_info")).toEqual({ name: "stream_info", description: "does stream_info", inputSchema: { type: "object", properties: { n: { type: "integer" } } }, annotations: { readOnlyHint: true } });
      expect(h.client.getServerCapabilities()?.tools?.listChanged).toBe(true);
      const result = await h.client.callTool({ name: "peer_echo", arguments: { anything: 1 } });
      expect(firstText(result)).toBe("ran echo");
      expect(fake.calls.at(-1)).toMatchObject({ identity: "peer", tool: "echo", input: { anything: 1 } });
      const local = await h.client.callTool({ name: "echo", arguments: { message: "local" } });
      expect(firstText(local)).toBe("local");
    } finally {
      await h.close();
    }
  });

  it("a long bridged call sends the client progress: a count of the keepalives, then the tool's own", async () => {
    const fake = fakePeer({ peer: cardOf(tool("slow")) });
    fake.answer(() => runningSet([{}, { progress: 5, total: 10 }]));
    const bridge = new FiskBridge({ peer: fake.peer, config: { identities: ["peer"] }, logger });
    await bridge.refresh();
    const h = await connectHarness({ bridge, fixtures: false, toolkit: { ...DEMO_TOOLKIT, tools: [] } });
    try {
      const progress: unknown[] = [];
      const result = await h.client.callTool({ name: "slow", arguments: {} }, undefined, { onprogress: (p) => void progress.push(p) });
      expect(firstText(result)).toBe("done");
      expect(progress).toEqual([
        { progress: 1, message: "slow is still running on peer (10 s)" },
        { progress: 6, total: 11, message: "slow on peer: 5 of 10" },
      ]);
    } finally {
      await h.close();
    }
  });

  it("a tools/list asks the agents again and a changed set is announced to the client", async () => {
    const fake = fakePeer({ peer: cardOf(tool("one")) });
    const bridge = new FiskBridge({ peer: fake.peer, config: { identities: ["peer"] }, logger });
    await bridge.refresh();
    const h = await connectHarness({ bridge, fixtures: false, toolkit: { ...DEMO_TOOLKIT, tools: [] } });
    try {
      let announced = 0;
      h.client.setNotificationHandler((await import("@modelcontextprotocol/sdk/types.js")).ToolListChangedNotificationSchema, () => void announced++);
      expect((await h.client.listTools()).tools.map((t) => t.name)).toEqual(["one"]);
      fake.cards.peer = cardOf(tool("one"), tool("two"));
      expect((await h.client.listTools()).tools.map((t) => t.name)).toEqual(["one", "two"]);
      await new Promise((r) => setTimeout(r, 50));
      expect(announced).toBe(1);
    } finally {
      await h.close();
    }
  });
});
