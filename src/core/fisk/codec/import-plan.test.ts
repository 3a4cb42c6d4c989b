import { describe, expect, it } from "vitest";
import { compileFilterPattern, FilterPatternError } from "./import-filter.ts";
import { planImport, type ImportHost, type ImportPlan } from "./import-plan.ts";
import type { AgentCard, ToolDescriptor } from "./types-common.ts";

const tool = (name: string, extra: Partial<ToolDescriptor> = {}): ToolDescriptor => ({ name, description: `does ${name}`, ...extra });
const card = (identity: string, tools: ToolDescriptor[]): AgentCard => ({ name: identity, version: "0.0.5", tools });
const host = (identity: string, names: string[], extra: Partial<ImportHost> = {}): ImportHost => ({
  identity,
  card: card(identity, names.map((n) => tool(n))),
  ...extra,
});
const names = (plan: ImportPlan): string[] => plan.tools.map((t) => t.name);
const remote = (plan: ImportPlan): string[] => plan.tools.map((t) => `${t.host}:${t.remoteName}`);

describe("planImport: filters", () => {
  const tools = ["stream_info", "stream_report", "stream_ls", "danger_purge", "consumer_ls"];

  it("keeps everything without filters", () => {
    expect(names(planImport([host("a", tools)], []))).toEqual([...tools].sort());
  });

  it("include keeps only matching names", () => {
    const plan = planImport([host("a", tools, { include: { tools: ["^stream_"] } })], []);
    expect(names(plan)).toEqual(["stream_info", "stream_ls", "stream_report"]);
    expect(plan.hosts[0]).toMatchObject({ discovered: 5, kept: ["stream_info", "stream_report", "stream_ls"] });
  });

  it("exclude removes matching names", () => {
    expect(names(planImport([host("a", tools, { exclude: { tools: ["^danger_"] } })], []))).not.toContain("danger_purge");
  });

  it("applies include before exclude", () => {
    const plan = planImport([host("a", tools, { include: { tools: ["^stream_"] }, exclude: { tools: ["_report$"] } })], []);
    expect(names(plan)).toEqual(["stream_info", "stream_ls"]);
  });

  it("matches any of several patterns, unanchored as Go's MatchString", () => {
    expect(names(planImport([host("a", tools, { include: { tools: ["info", "^consumer"] } })], []))).toEqual(["consumer_ls", "stream_info"]);
  });

  it("flags an include by tag as ignored and keeps filtering by name", () => {
    const plan = planImport([host("a", tools, { include: { tags: ["ai:read_only"] } })], []);
    expect(plan.hosts[0]!.ignoredIncludeTags).toBe(true);
    expect(names(plan)).toHaveLength(5);
  });

  it("makes a bad pattern an error for that host alone", () => {
    const plan = planImport([host("a", tools, { include: { tools: ["("] } }), host("b", ["other"])], []);
    expect(plan.hosts[0]!.error).toMatch(/^invalid remote tool filter pattern "\(":/);
    expect(names(plan)).toEqual(["other"]);
  });

  it("refuses an exclude by tag, as fisk-ai's config does", () => {
    const plan = planImport([host("a", tools, { exclude: { tags: ["x"] } })], []);
    expect(plan.hosts[0]!.error).toContain("exclude by tag");
    expect(plan.tools).toEqual([]);
  });

  it("reads RE2 patterns: inline flags and (?P<name>), refusing look-around", () => {
    expect(compileFilterPattern("(?i)^STREAM").test("stream_ls")).toBe(true);
    expect(compileFilterPattern("^(?P<verb>stream)_").test("stream_ls")).toBe(true);
    expect(() => compileFilterPattern("^stream(?!_ls)")).toThrow(FilterPatternError);
    expect(() => compileFilterPattern("(a)\\1")).toThrow(FilterPatternError);
  });
});

describe("planImport: naming", () => {
  it("keeps a bare name that clashes with nothing", () => {
    const plan = planImport([host("nats", ["stream_info"])], ["local_tool"]);
    expect(plan.tools[0]).toMatchObject({ name: "stream_info", remoteName: "stream_info", host: "nats", prefixed: false });
  });

  it("prefixes only the name that clashes with a local tool, and calls the remote name on the wire", () => {
    const plan = planImport([host("nats", ["stream_info", "ping"], { alias: "n" })], ["ping"]);
    expect(names(plan)).toEqual(["n_ping", "stream_info"]);
    expect(plan.tools[0]).toMatchObject({ name: "n_ping", remoteName: "ping", host: "nats", prefixed: true });
  });

  it("prefixes a name two hosts offer on both, with the identity when there is no alias", () => {
    const plan = planImport([host("a", ["dup", "only_a"]), host("b", ["dup"])], []);
    expect(names(plan)).toEqual(["a_dup", "b_dup", "only_a"]);
    expect(remote(plan)).toEqual(["a:dup", "b:dup", "a:only_a"]);
  });

  it("gives the same result in either host order", () => {
    const hosts = [host("a", ["dup", "x"], { alias: "first" }), host("b", ["dup", "y"]), host("c", ["x", "z"], { alias: "c" })];
    const forward = planImport(hosts, ["z"]);
    const backward = planImport([...hosts].reverse(), ["z"]);
    expect(backward.tools).toEqual(forward.tools);
    expect(backward.skipped).toEqual(forward.skipped);
    expect(backward.collisions).toEqual(forward.collisions);
    expect(names(forward)).toEqual(["b_dup", "c_x", "c_z", "first_dup", "first_x", "y"]);
  });

  it("drops both tools when two hosts share an alias, and reports the collision", () => {
    const plan = planImport([host("east", ["dup"], { alias: "nats" }), host("west", ["dup"], { alias: "nats" })], []);
    expect(plan.tools).toEqual([]);
    expect(plan.skipped.map((s) => [s.host, s.reason, s.message])).toEqual([
      ["east", "collision", 'dup (name "nats_dup" collides)'],
      ["west", "collision", 'dup (name "nats_dup" collides)'],
    ]);
    expect(plan.collisionError).toBe(
      'imported tool name collision: "nats_dup" (agent "east"), "nats_dup" (agent "west"); set a distinct alias on the remote_tools host',
    );
  });

  it("drops a prefixed name that still lands on a local tool", () => {
    const plan = planImport([host("a", ["x"])], ["x", "a_x"]);
    expect(plan.skipped[0]).toMatchObject({ finalName: "a_x", reason: "collision" });
    expect(plan.collisionError).not.toBeNull();
  });

  it("skips a name that is invalid once formed", () => {
    const plan = planImport([host("a", ["ok", "bad name", "dotted.name"])], []);
    expect(names(plan)).toEqual(["ok"]);
    expect(plan.skipped.map((s) => s.message)).toEqual(['bad name (invalid name "bad name")', 'dotted.name (invalid name "dotted.name")']);
    expect(plan.collisionError).toBeNull();
  });

  it("counts names held by Object.prototype like any other", () => {
    const plan = planImport([host("a", ["constructor", "__proto__"]), host("b", ["toString"])], ["hasOwnProperty"]);
    expect(names(plan)).toEqual(["__proto__", "constructor", "toString"]);
  });
});

describe("planImport: schema, description, behaviour and hosts", () => {
  const one = (t: ToolDescriptor): ImportPlan => planImport([{ identity: "h", card: card("h", [t]) }], []);

  it("gives a tool without a schema {\"type\":\"object\"} and forwards a schema unchanged", () => {
    expect(one(tool("t")).tools[0]!.inputSchema).toEqual({ type: "object" });
    const schema = { type: "object", properties: { s: { type: "string" } }, required: ["s"] };
    expect(one(tool("t", { input_schema: schema })).tools[0]!.inputSchema).toBe(schema);
  });

  it.each([["not json"], [["array"]], [null], [7]])("skips a tool whose schema is %j as unparsable", (schema) => {
    const plan = one(tool("t", { input_schema: schema as never }));
    expect(plan.tools).toEqual([]);
    expect(plan.skipped[0]).toMatchObject({ reason: "unparsable-schema" });
    expect(plan.skipped[0]!.message).toContain("unparsable input schema");
  });

  it.each([[""], [undefined]])("skips a tool whose description is %j", (description) => {
    const plan = one({ name: "t", ...(description === undefined ? {} : { description }) });
    expect(plan.skipped[0]).toMatchObject({ reason: "no-description", remoteName: "t" });
    expect(plan.skipped[0]!.message).toBe('tool "t" from agent "h" advertises no description');
  });

  it("carries behaviour apart from the description, reading a contradiction the dangerous way", () => {
    const planned = one(tool("t", { behavior: { read_only: true, destructive: true, idempotent: true } })).tools[0]!;
    expect(planned.behavior).toEqual({ read_only: false, destructive: true, idempotent: true });
    expect(planned.description).toBe("does t");
    expect(one(tool("t")).tools[0]).not.toHaveProperty("behavior");
  });

  it("leaves out a host whose discovery failed, without counting its names", () => {
    const plan = planImport([host("a", ["dup"]), { identity: "down", card: null, discoveryError: "nothing answers" }], []);
    expect(plan.hosts[1]).toMatchObject({ identity: "down", error: "nothing answers", kept: [] });
    expect(names(plan)).toEqual(["dup"]);
  });

  it("refuses an invalid host name or alias", () => {
    const plan = planImport([host("bad.host", ["x"]), host("ok", ["y"], { alias: "no spaces" })], []);
    expect(plan.hosts.map((h) => h.error)).toEqual([expect.stringContaining('"bad.host"'), expect.stringContaining('alias "no spaces"')]);
    expect(plan.tools).toEqual([]);
  });

  it("skips malformed entries of an unvalidated card instead of failing", () => {
    const hostile = { name: "h", version: "1", tools: [null, 7, { name: 5, description: "x" }, tool("fine")] } as unknown as AgentCard;
    const plan = planImport([{ identity: "h", card: hostile }, { identity: "g", card: { name: "g", version: "1", tools: "nope" } as unknown as AgentCard }], []);
    expect(names(plan)).toEqual(["fine"]);
    expect(plan.skipped.map((s) => s.reason)).toEqual(["collision", "collision", "collision"]);
    expect(plan.hosts.map((h) => h.discovered)).toEqual([4, 0]);
  });
});
