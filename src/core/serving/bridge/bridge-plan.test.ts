import { describe, expect, it } from "vitest";
import type { AgentCard, ToolDescriptor } from "../../fisk/codec/types-common.ts";
import { bridgeConfigProblem, discoveryProblem, planBridge, type HostCard } from "./bridge-plan.ts";

const tool = (name: string, extra: Partial<ToolDescriptor> = {}): ToolDescriptor => ({ name, description: `does ${name}`, input_schema: { type: "object" }, ...extra });
const card = (tools: unknown): AgentCard => ({ name: "x", version: "1", protocols: [], tools } as unknown as AgentCard);
const host = (identity: string, ...tools: ToolDescriptor[]): HostCard => ({ identity, card: card(tools) });

describe("planBridge: fisk-ai's import naming (note §5) over the bridged agents", () => {
  it("keeps bare names when nothing clashes, sorted, each calling its own agent by its own name", () => {
    const plan = planBridge({ identities: ["a", "b"] }, [host("a", tool("stream_info")), host("b", tool("kv_get"))], []);
    expect(plan.tools.map((t) => [t.name, t.host, t.remoteName, t.prefixed])).toEqual([
      ["kv_get", "b", "kv_get", false],
      ["stream_info", "a", "stream_info", false],
    ]);
    expect(plan.errors).toEqual([]);
    expect(plan.warnings).toEqual([]);
  });

  it("prefixes a name two agents share on both, and only that name", () => {
    const plan = planBridge({ identities: ["a", "b"] }, [host("a", tool("dup"), tool("one")), host("b", tool("dup"))], []);
    expect(plan.tools.map((t) => t.name)).toEqual(["a_dup", "b_dup", "one"]);
    expect(plan.tools.find((t) => t.name === "b_dup")).toMatchObject({ host: "b", remoteName: "dup", prefixed: true });
  });

  it("prefixes a name the local surface already serves", () => {
    const plan = planBridge({ identities: ["a"] }, [host("a", tool("echo"), tool("other"))], ["echo"]);
    expect(plan.tools.map((t) => t.name)).toEqual(["a_echo", "other"]);
  });

  it("the same names whatever order the agents are named in", () => {
    const hosts = [host("a", tool("dup")), host("b", tool("dup"), tool("x"))];
    const forward = planBridge({ identities: ["a", "b"] }, hosts, []).tools.map((t) => t.name);
    const backward = planBridge({ identities: ["b", "a"] }, [...hosts].reverse(), []).tools.map((t) => t.name);
    expect(forward).toEqual(backward);
  });

  it("drops every tool holding a name that still collides after prefixing, and says so", () => {
    const plan = planBridge({ identities: ["a", "b"] }, [host("a", tool("x"), tool("b_x")), host("b", tool("x"))], []);
    expect(plan.tools.map((t) => t.name)).toEqual(["a_x"]);
    expect(plan.collisionError).toBe('imported tool name collision: "b_x" (agent "a"), "b_x" (agent "b"); set a distinct alias on the remote_tools host');
  });

  it("include first, then exclude, on tool names with unanchored patterns", () => {
    const plan = planBridge({ identities: ["a"], include: ["^stream_"], exclude: ["_report$"] }, [host("a", tool("stream_info"), tool("stream_report"), tool("kv_get"))], []);
    expect(plan.tools.map((t) => t.name)).toEqual(["stream_info"]);
    expect(plan.warnings).toEqual([]);
  });

  it("warns about a pattern that matches no tool, and about an agent left with nothing", () => {
    const plan = planBridge({ identities: ["a"], include: ["^nope"], exclude: ["zzz"] }, [host("a", tool("kv_get"))], []);
    expect(plan.tools).toEqual([]);
    expect(plan.warnings).toEqual([
      '--bridge-include "^nope" matches no tool of the bridged agents',
      '--bridge-exclude "zzz" matches no tool of the bridged agents',
      "agent a offers no tool to bridge (1 discovered, none kept by the filters)",
    ]);
  });

  it("skips malformed tools with a warning and keeps the rest: no description, a schema that is not an object, a bad name", () => {
    const plan = planBridge(
      { identities: ["a"] },
      [host("a", tool("good"), tool("quiet", { description: "" }), tool("odd", { input_schema: "not json" as never }), tool("bad name"))],
      [],
    );
    expect(plan.tools.map((t) => t.name)).toEqual(["good"]);
    expect(plan.warnings).toEqual([
      'not bridging from agent a: bad name (invalid name "bad name")',
      'not bridging from agent a: tool "odd" from agent "a" has an unparsable input schema: it is not a JSON object',
      'not bridging from agent a: tool "quiet" from agent "a" advertises no description',
    ]);
  });

  it("a missing schema becomes an empty object schema; a card whose tools are not a list gives none", () => {
    const plan = planBridge({ identities: ["a", "b"] }, [host("a", tool("t", { input_schema: undefined })), { identity: "b", card: card("oops") }], []);
    expect(plan.tools.map((t) => [t.name, t.inputSchema])).toEqual([["t", { type: "object" }]]);
    expect(plan.warnings).toContain("agent b offers no tool to bridge (0 discovered, none kept by the filters)");
  });

  it("an agent that was not discovered is an error naming why", () => {
    const plan = planBridge({ identities: ["a", "gone"] }, [host("a", tool("t")), { identity: "gone", card: null, error: "no agent answers" }], []);
    expect(plan.tools.map((t) => t.name)).toEqual(["t"]);
    expect(plan.errors).toEqual([{ identity: "gone", message: "no agent answers" }]);
  });
});

describe("bridgeConfigProblem and discoveryProblem", () => {
  it.each([
    [{ identities: [] }, "name at least one fisk-ai agent identity to bridge"],
    [{ identities: ["a.b"] }, `cannot bridge "a.b": an agent identity has letters, digits, '-' and '_' only`],
    [{ identities: ["a", "a"] }, "a is named twice"],
    [{ identities: ["a"], include: ["("] }, /invalid remote tool filter pattern "\("/],
    [{ identities: ["a"], exclude: ["x(?=y)"] }, /look-around and back-references are not RE2 syntax/],
  ] as const)("refuses %j", (config, message) => {
    const problem = bridgeConfigProblem(config);
    if (typeof message === "string") expect(problem).toBe(message);
    else expect(problem).toMatch(message);
  });

  it("accepts a good configuration", () => {
    expect(bridgeConfigProblem({ identities: ["nats-tools", "kv_agent"], include: ["^stream_", "(?i)KV"] })).toBeNull();
  });

  it("names each way discovery finds no card", () => {
    expect(discoveryProblem("a", { kind: "no-such-agent" })).toBe("no agent answers discovery on choria.fisk-ai.discovery.a (no responders: is a running on this NATS account?)");
    expect(discoveryProblem("a", { kind: "timeout", timeoutMs: 5000 })).toBe("discovery on choria.fisk-ai.discovery.a got no reply within 5000 ms");
    expect(discoveryProblem("a", { kind: "refused", code: "400", description: "invalid request: x" })).toBe("discovery was refused: 400: invalid request: x");
    expect(discoveryProblem("a", { kind: "invalid", problem: "/tools/0/name: must be string" })).toBe("the agent's discovery reply is not a valid card: /tools/0/name: must be string");
    expect(discoveryProblem("a", { kind: "error", message: "closed" })).toBe("discovery failed: closed");
    expect(discoveryProblem("a", { kind: "card", card: card([]), generation: "gen2", evidence: [] })).toBeNull();
  });
});
