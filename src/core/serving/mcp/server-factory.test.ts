import { describe, expect, it } from "vitest";
import { sinkLogger } from "../../env/defaults.ts";
import { systemScheduler } from "../../env/scheduler.ts";
import { BUILTIN_DEFS } from "../builtin-tools.ts";
import { DEMO_TOOLKIT } from "../demo-toolkit.ts";
import type { CommandRunner, RunRequest } from "../run-types.ts";
import { OutputCollector } from "../toolkit/output-cap.ts";
import { TOOLKIT_FORMAT, TOOLKIT_VERSION, type ToolDef, type Toolkit } from "../toolkit/toolkit-types.ts";
import { FIXTURE_TOOLS } from "./fixtures/index.ts";
import { createServingContext } from "./serving-context.ts";
import { connectHarness, firstText } from "./test-harness.ts";
import { TEST_WORLD } from "./test-harness.ts";

const toolkit = (tools: ToolDef[], name = "test-kit"): Toolkit => ({
  format: TOOLKIT_FORMAT,
  version: TOOLKIT_VERSION,
  name,
  description: "A toolkit for tests.",
  filter: { include: [], exclude: [] },
  tools,
});

const echoDef = BUILTIN_DEFS.find((t) => t.name === "echo")!;

describe("tools/list", () => {
  it("lists the demo tools with their input schemas verbatim, annotations from their tags, then the fixtures", async () => {
    const h = await connectHarness();
    const { tools } = await h.client.listTools();
    const legacyFixtures = FIXTURE_TOOLS.filter((f) => f.eras === undefined || f.eras.includes("legacy"));
    expect(tools.map((t) => t.name)).toEqual([...BUILTIN_DEFS.map((t) => t.name), ...legacyFixtures.map((f) => f.tool.name)]);
    for (const def of BUILTIN_DEFS) {
      const listed = tools.find((t) => t.name === def.name)!;
      expect(listed.inputSchema).toEqual(def.inputSchema);
      expect(Object.keys(listed.inputSchema)).toEqual(Object.keys(def.inputSchema));
      expect(listed.description).toBe(def.description);
    }
    expect(tools.find((t) => t.name === "echo")!.annotations).toEqual({ readOnlyHint: true, idempotentHint: true });
    expect(tools.find((t) => t.name === "confirm")!.annotations).toEqual({ destructiveHint: true });
    expect(tools.find((t) => t.name === "add")!.outputSchema).toEqual(BUILTIN_DEFS.find((t) => t.name === "add")!.outputSchema);
    const schema2020 = tools.find((t) => t.name === "json_schema_2020_12_tool")!.inputSchema;
    expect(schema2020.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema2020.additionalProperties).toBe(false);
    await h.close();
  });

  it("serves a titled tool with its title in the listing and the annotations; no fixtures for another toolkit", async () => {
    const titled: ToolDef = { ...echoDef, name: "say", title: "Say something", tags: ["ai:additive"] };
    const h = await connectHarness({ toolkit: toolkit([titled]) });
    const { tools } = await h.client.listTools();
    expect(tools).toEqual([
      { name: "say", title: "Say something", description: echoDef.description, inputSchema: echoDef.inputSchema, annotations: { title: "Say something", destructiveHint: false } },
    ]);
    expect(h.client.getServerCapabilities()?.resources).toBeUndefined();
    expect(h.client.getServerVersion()?.name).toBe("test-kit");
    await h.close();
  });

  it("logs each tool left out of the MCP surface as a warning, with its reason", () => {
    const logs: string[] = [];
    const logger = sinkLogger((level, message, fields) => logs.push(`${level} ${message} ${JSON.stringify(fields)}`));
    const ctx = createServingContext({ ...TEST_WORLD,
      toolkit: toolkit([{ ...echoDef, name: "bad name!" }, { ...echoDef, name: "gone", tags: ["ai:deny"] }, echoDef]),
      scheduler: systemScheduler(),
      logger,
    });
    expect([...ctx.tools.keys()]).toEqual(["echo"]);
    expect(logs).toEqual([
      'warn not serving tool over MCP: the name is not a valid MCP tool name (1–128 of A–Z a–z 0–9 _ - .) {"tool":"bad name!"}',
      'warn not serving tool over MCP: tagged ai:deny: never served {"tool":"gone"}',
    ]);
  });

  it("lets a toolkit tool shadow a fixture of the same name, with a warning", () => {
    const logs: string[] = [];
    const ctx = createServingContext({ ...TEST_WORLD,
      toolkit: toolkit([{ ...echoDef, name: "test_simple_text" }]),
      fixtures: true,
      scheduler: systemScheduler(),
      logger: sinkLogger((level, message) => logs.push(`${level} ${message}`)),
    });
    expect(ctx.fixtureTools.map((f) => f.tool.name)).not.toContain("test_simple_text");
    expect(logs).toContain("warn not serving the conformance fixture test_simple_text: a toolkit tool has that name");
  });
});

describe("tools/call on the built-in tools", () => {
  it("echo and add answer; add carries structured content", async () => {
    const h = await connectHarness();
    const echo = await h.client.callTool({ name: "echo", arguments: { message: "hello there" } });
    expect(echo).toEqual({ content: [{ type: "text", text: "hello there" }], isError: false });
    const add = await h.client.callTool({ name: "add", arguments: { a: 2, b: 40.5 } });
    expect(add).toEqual({ content: [{ type: "text", text: "42.5" }], isError: false, structuredContent: { sum: 42.5 } });
    await h.close();
  });

  it("fail ends like a command with the chosen exit code: a result, not an error", async () => {
    const h = await connectHarness();
    const result = await h.client.callTool({ name: "fail", arguments: { exit_code: 3, output: "boom\n" } });
    expect(result.isError).toBe(false);
    expect(JSON.parse(firstText(result))).toEqual({ command: "fail 3", exit_code: 3, output: "boom\n" });
    await h.close();
  });

  it("large-output is capped with head, marker and tail, and says it was truncated", async () => {
    const h = await connectHarness();
    const result = await h.client.callTool({ name: "large-output", arguments: { bytes: 200_000 } });
    const body = JSON.parse(firstText(result)) as { output: string; truncated?: boolean; exit_code: number };
    expect(body.truncated).toBe(true);
    expect(body.exit_code).toBe(0);
    expect(body.output.length).toBeLessThan(70_000);
    await h.close();
  });

  it("sleep and slow finish after their time", async () => {
    const h = await connectHarness();
    expect(firstText(await h.client.callTool({ name: "sleep", arguments: { seconds: 0.05 } }))).toBe("slept 0.05 s");
    expect(firstText(await h.client.callTool({ name: "slow", arguments: { seconds: 0.05 } }))).toBe("finished after 0.05 s");
    await h.close();
  });

  it("confirm runs once approved (confirm mode never leaves approval to the client)", async () => {
    const h = await connectHarness({ confirmMode: "never" });
    expect(await h.client.callTool({ name: "confirm", arguments: { action: "ship it" } })).toEqual({ content: [{ type: "text", text: "done: ship it" }], isError: false });
    await h.close();
  });

  it("an unknown tool is a tool error, not a JSON-RPC error", async () => {
    const h = await connectHarness();
    const result = await h.client.callTool({ name: "nope", arguments: {} });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toBe('Unknown tool "nope": this server has no tool by that name. Call tools/list to see the tools it offers.');
    await h.close();
  });

  it("arguments that miss the input schema are refused with every problem listed, and nothing runs", async () => {
    const runs: RunRequest[] = [];
    const runner: CommandRunner = async (request) => (runs.push(request), { kind: "harness-error", reason: "start", commandLine: "", message: "unused" });
    const h = await connectHarness({ runner });
    const missing = await h.client.callTool({ name: "echo", arguments: {} });
    expect(missing.isError).toBe(true);
    expect(firstText(missing)).toBe('Not run: the arguments for echo do not match its input schema.\n- (the arguments): Missing required property "message".');
    const wrong = await h.client.callTool({ name: "add", arguments: { a: "one", b: 2, c: 3 } });
    expect(wrong.isError).toBe(true);
    const text = firstText(wrong);
    expect(text).toMatch(/^Not run: the arguments for add do not match its input schema\.\n/);
    expect(text).toContain("- /a:");
    expect(text).toMatch(/"c"/);
    const range = await h.client.callTool({ name: "sleep", arguments: { seconds: 999 } });
    expect(firstText(range)).toContain("- /seconds:");
    expect(runs).toEqual([]);
    await h.close();
  });
});

describe("command tools", () => {
  const listDef: ToolDef = {
    name: "list",
    description: "Lists a folder.",
    inputSchema: { type: "object", properties: { long: { type: "boolean" }, path: { type: "string" } }, required: ["path"], additionalProperties: false },
    tags: ["ai:read_only"],
    impl: { kind: "command", argv: ["ls"], positionals: ["path"], timeoutMs: 5_000, env: {} },
  };

  it("run through the injected runner; the log names the command line and never the output", async () => {
    const seen: RunRequest[] = [];
    const runner: CommandRunner = async (request) => {
      seen.push(request);
      const output = new OutputCollector();
      output.push(new TextEncoder().encode("secret-output-line\n"));
      return { kind: "ran", commandLine: "ls --long -- /tmp", exitCode: 2, signal: null, output: output.finish(), durationMs: 3 };
    };
    const h = await connectHarness({ toolkit: toolkit([listDef]), runner });
    const result = await h.client.callTool({ name: "list", arguments: { long: true, path: "/tmp" } });
    expect(result.isError).toBe(false);
    expect(JSON.parse(firstText(result))).toEqual({ command: "ls --long -- /tmp", exit_code: 2, output: "secret-output-line\n" });
    expect(seen.map((r) => r.argv)).toEqual([["ls", "--long", "--", "/tmp"]]);
    expect(seen[0]!.timeoutMs).toBe(5_000);
    expect(h.logs).toContain("info Running ls --long -- /tmp {}");
    expect(h.logs.join("\n")).not.toContain("secret-output-line");
    await h.close();
  });

  it("without a runner a command tool is a harness error", async () => {
    const h = await connectHarness({ toolkit: toolkit([listDef]) });
    const result = await h.client.callTool({ name: "list", arguments: { path: "/" } });
    expect(result).toEqual({ content: [{ type: "text", text: "command tools cannot run here" }], isError: true });
    await h.close();
  });
});

describe("the demo toolkit with fixtures", () => {
  it("is served with fixtures by default and the demo instructions", async () => {
    const h = await connectHarness({ toolkit: DEMO_TOOLKIT });
    expect(h.client.getServerCapabilities()).toMatchObject({ tools: { listChanged: true }, logging: {}, resources: { subscribe: true }, prompts: {}, completions: {} });
    expect(h.client.getInstructions()).toBe(DEMO_TOOLKIT.instructions);
    await h.close();
  });
});
