import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import { sinkLogger } from "../../../src/core/env/defaults.ts";
import { systemScheduler } from "../../../src/core/env/scheduler.ts";
import { createValidationEngine } from "../../../src/core/packs/index.ts";
import { packFor } from "../../../src/core/packs/mcp/packs.ts";
import { atLeast, type McpVersion } from "../../../src/core/packs/mcp/versions.ts";
import { DEMO_TOOLKIT } from "../../../src/core/serving/demo-toolkit.ts";
import { type FrameEvent, RecordingTransport } from "../../../src/core/serving/mcp/recording-transport.ts";
import { createMcpServer } from "../../../src/core/serving/mcp/server-factory.ts";
import { createServingContext } from "../../../src/core/serving/mcp/serving-context.ts";
import { TEST_WORLD } from "../../../src/core/serving/mcp/test-harness.ts";
import { McpWorkbenchState } from "../../../src/ui/features/mcp/mcp-state.svelte.ts";
import { pageCompiler } from "../../../src/ui/features/mcp/page-compiler.ts";
import { memoryHandle } from "../../../src/ui/features/mcp/test-transports.ts";

/**
 * Every MCP frame Patchbay builds, as client (the MCP workbench's state over its connection) and
 * as server (the served demo agent with its fixtures), talking to each other in memory in each
 * version Patchbay negotiates, passes the project's own validator.
 */

const VERSIONS: readonly McpVersion[] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
const engine = createValidationEngine();

type Sender = "client" | "server";

interface Judged {
  readonly sender: Sender;
  readonly text: string;
  readonly kind: string;
  readonly status: string;
  readonly problems: readonly string[];
}

/** Each frame in order, in one session, its answers checked as the result of the request they answer. */
function judge(frames: readonly FrameEvent[], version: McpVersion): Judged[] {
  const session = engine.session();
  const pack = packFor(version);
  const asked = new Map<string, string>();
  return frames.map((frame) => {
    const sender: Sender = frame.direction === "in" ? "client" : "server";
    const json = JSON.parse(frame.text) as { id?: unknown; method?: unknown; result?: unknown };
    const key = (who: Sender) => `${who} ${JSON.stringify(json.id)}`;
    let kindId: string | undefined;
    if (typeof json.method === "string" && "id" in json) asked.set(key(sender), json.method);
    else if ("result" in json) {
      const method = asked.get(key(sender === "client" ? "server" : "client"));
      if (method !== undefined && pack.kinds.some((k) => k.id === `${method}:result`)) kindId = `${method}:result`;
    }
    const verdict = session.validateText(frame.text, { packId: pack.id, ...(kindId ? { kindId } : {}) });
    const problems = verdict.issues.filter((i) => i.severity === "error").map((i) => `${i.pointer}: ${i.message}`);
    const wrongWay = (verdict.direction === "client-to-server" && sender === "server") || (verdict.direction === "server-to-client" && sender === "client");
    if (wrongWay) problems.push(`${verdict.kindLabel ?? "it"} travels ${verdict.direction ?? "?"}, but the ${sender} sent it`);
    return { sender, text: frame.text, kind: verdict.kindId ?? "?", status: verdict.status, problems };
  });
}

async function until(what: string, test: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !test(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  if (!test()) throw new Error(`timed out waiting for ${what}`);
}

/** Drives the workbench through everything it can send and answer, against the served agent. */
async function converse(version: McpVersion): Promise<FrameEvent[]> {
  const frames: FrameEvent[] = [];
  const ctx = createServingContext({ toolkit: DEMO_TOOLKIT, fixtures: true, confirmMode: "always", scheduler: systemScheduler(), logger: sinkLogger(() => {}), ...TEST_WORLD });
  const server = createMcpServer(ctx, "legacy", "test");
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(new RecordingTransport(serverSide as never, (frame) => frames.push(frame)));
  const bench = new McpWorkbenchState(() => memoryHandle(clientSide), pageCompiler(true));
  bench.form.command = "srv";
  bench.form.requestedVersion = version;
  // The version under test, asked for by initialize: no server/discover probe of another era first.
  bench.form.era = "legacy";
  await bench.connect();
  expect(bench.info?.negotiatedVersion).toBe(version);
  const connection = bench.connection!;

  const call = async (name: string, args: object, meta = "") => {
    bench.toolFilter = name;
    const index = bench.filteredTools.findIndex((t) => t.name === name);
    if (index < 0) throw new Error(`the served agent lists no tool ${name}`);
    bench.select(index);
    bench.argsDraft = JSON.stringify(args);
    bench.callOptions.metaText = meta;
    await bench.send();
    bench.toolFilter = "";
  };
  const answered = async (name: string, args: object, answer: () => void) => {
    const sent = call(name, args);
    await until(`the request of ${name}`, () => bench.elicitation.pending !== null || bench.client.sampling.pending !== null);
    answer();
    await sent;
  };

  bench.client.logs.requestLevel = "debug";
  await bench.client.setLogLevel();
  await bench.client.ping(1000);
  await call("echo", { message: "hi" });
  await call("add", { a: 1, b: 2.5 });
  await call("fail", { exit_code: 3, output: "no" });
  await call("echo", {});
  for (const fixture of ["test_simple_text", "test_image_content", "test_embedded_resource", "test_multiple_content_types", "test_error_handling", "test_tool_with_logging"]) {
    await call(fixture, {});
  }
  if (atLeast(version, "2025-03-26")) await call("test_audio_content", {});
  await call("test_tool_with_progress", {}, '{"progressToken":"typed"}');
  await call("json_schema_2020_12_tool", { name: "n", address: { street: "s", city: "c" }, email: "n@example.org" });
  await call("test_dynamic_tool", {});
  await until("the refreshed tool list", () => bench.tools.some((t) => t.name === "test_dynamic_extra"));
  await connection.callTool("no-such-tool", {});

  const slow = call("slow", { seconds: 30 });
  await until("the slow call", () => bench.calling);
  bench.cancel();
  await slow;

  await connection.listResources();
  await connection.listResourceTemplates();
  await connection.readResource("test://static-text");
  await connection.readResource("test://static-binary");
  await connection.readResource("test://template/7/data");
  await connection.readResource("test://missing").catch(() => undefined);
  await connection.subscribeResource("test://watched-resource");
  await connection.unsubscribeResource("test://watched-resource");
  await connection.listPrompts();
  await connection.getPrompt("test_simple_prompt");
  await connection.getPrompt("test_prompt_with_arguments", { arg1: "a", arg2: "b" });
  await connection.getPrompt("test_prompt_with_embedded_resource", { resourceUri: "test://static-text" });
  await connection.getPrompt("test_prompt_with_image");
  await connection.getPrompt("no-such-prompt").catch(() => undefined);
  await connection.complete({ type: "ref/prompt", name: "test_prompt_with_arguments" }, { name: "arg1", value: "a" });
  await connection.complete({ type: "ref/resource", uri: "test://template/{id}/data" }, { name: "id", value: "1" });

  await answered("test_sampling", { prompt: "hello" }, () => bench.client.sampling.send());
  await answered("test_sampling", { prompt: "again" }, () => bench.client.sampling.decline());
  bench.client.roots.rows = [{ uri: "file:///work/repo", name: "repo" }];
  await bench.client.roots.apply();
  await server.listRoots();
  await server.ping();

  // Older sessions are not offered these; asked anyway, the answer must still be valid there.
  if (!atLeast(version, "2025-11-25")) await connection.callTool("test_elicitation_sep1330_enums", {});
  if (!atLeast(version, "2025-06-18")) {
    await connection.callTool("test_elicitation", { message: "Who?" });
    // No elicitation in this version: the confirm-gated tool is refused rather than asked about.
    await call("confirm", { action: "tidy up" });
  }
  if (!atLeast(version, "2025-03-26")) await connection.callTool("test_audio_content", {});
  if (atLeast(version, "2025-06-18")) {
    await answered("confirm", { action: "tidy up" }, () => {
      bench.elicitation.values.approve = true;
      bench.elicitation.accept();
    });
    await answered("test_elicitation", { message: "Who?" }, () => {
      Object.assign(bench.elicitation.values, { username: "ada", email: "ada@example.com" });
      bench.elicitation.accept();
    });
    // Defaults include a decimal in a number field and a whole number in an integer field.
    await answered("test_elicitation_sep1034_defaults", {}, () => bench.elicitation.accept());
    if (atLeast(version, "2025-11-25")) {
      await answered("test_elicitation_sep1330_enums", {}, () => {
        Object.assign(bench.elicitation.values, { untitledSingle: "option2", titledSingle: "value1", legacyEnum: "opt3", untitledMulti: ["option1"], titledMulti: ["value2", "value3"] });
        bench.elicitation.accept();
      });
    }
    await answered("test_elicitation", { message: "Declined?" }, () => bench.elicitation.decline());
    await answered("test_elicitation", { message: "Cancelled?" }, () => bench.elicitation.cancel());
  }
  await bench.disconnect();
  return frames;
}

/** What each conversation must have produced, so a frame that silently stops being sent is noticed. */
const EVERY_VERSION = [
  ...["initialize:request", "notifications/initialized:notification", "tools/list:request", "tools/call:request", "notifications/cancelled:notification"],
  ...["logging/setLevel:request", "ping:request", "ping:result", "resources/list:request", "resources/templates/list:request", "resources/read:request"],
  ...["resources/subscribe:request", "resources/unsubscribe:request", "prompts/list:request", "prompts/get:request", "completion/complete:request"],
  ...["sampling/createMessage:result", "roots/list:result", "notifications/roots/list_changed:notification", "error"],
].map((k) => `client ${k}`).concat(
  [
    ...["initialize:result", "tools/list:result", "tools/call:result", "logging/setLevel:result", "ping:request", "ping:result", "resources/list:result"],
    ...["resources/templates/list:result", "resources/read:result", "resources/subscribe:result", "resources/unsubscribe:result", "prompts/list:result"],
    ...["prompts/get:result", "completion/complete:result", "sampling/createMessage:request", "roots/list:request", "notifications/message:notification"],
    ...["notifications/progress:notification", "notifications/tools/list_changed:notification", "error"],
  ].map((k) => `server ${k}`),
);
const ELICITATION = ["client elicitation/create:result", "server elicitation/create:request"];

describe("frames Patchbay builds pass its own validator", () => {
  for (const version of VERSIONS) {
    it(`MCP ${version}: the workbench as client and the served agent as server`, { timeout: 20_000 }, async () => {
      const judged = judge(await converse(version), version);
      // The one frame meant to fail: arguments typed by the user that miss the tool's inputSchema.
      const typed = (j: Judged) => j.text.includes('"name":"echo","arguments":{}');
      expect(judged.filter(typed).map((j) => [j.status, j.problems])).toEqual([["invalid", ['/params/arguments: Missing required property "message".']]]);
      const wrong = judged.filter((j) => !typed(j) && (!(j.status === "valid" || j.status === "error-response") || j.problems.length > 0));
      expect(wrong.map((j) => `${j.sender} ${j.kind} ${j.status}: ${j.problems.join("; ")}\n  ${j.text.slice(0, 400)}`)).toEqual([]);
      const kinds = new Set(judged.map((j) => `${j.sender} ${j.kind}`));
      const expected = atLeast(version, "2025-06-18") ? [...EVERY_VERSION, ...ELICITATION] : EVERY_VERSION;
      expect(expected.filter((k) => !kinds.has(k))).toEqual([]);
      if (!atLeast(version, "2025-06-18")) expect(ELICITATION.filter((k) => kinds.has(k))).toEqual([]);
      else {
        // A decimal answers the number field and a whole number the integer field.
        const defaults = judged.find((j) => j.kind === "elicitation/create:result" && j.text.includes('"score":95.5'));
        expect(defaults?.text).toContain('"age":30');
      }
    });
  }
});
