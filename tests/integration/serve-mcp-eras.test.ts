/**
 * `patchbay serve --http` and `--stdio` as real processes, each feature in each era, against real
 * peers: the v1 SDK client (legacy), the v2 client negotiating legacy, and the v2 client in auto
 * mode (which lands on 2026-07-28). One toolkit serves both eras: built-in tools, a command tool
 * that holds on (to see cancellation end its process), and the conformance fixtures.
 */
import type { Client as V2Client } from "@modelcontextprotocol/client";
import type { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alive, startHttpServe, until, v1Client, v2Client, type HttpServe, type Surface } from "../helpers/served-cli.ts";
import { buildCli, type BuiltCli } from "../helpers/serve-processes.ts";

let built: BuiltCli;
let http: HttpServe;
let kit: string;
const surfaces: Record<"http" | "stdio", () => Surface> = {
  http: () => ({ kind: "http", url: http.url }),
  stdio: () => ({ kind: "stdio", built, args: [kit, "--fixtures"] }),
};
const open: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  built = await buildCli();
  kit = join(built.dir, "eras-kit.json");
  const holdScript = "require('fs').writeFileSync(process.argv.at(-1), String(process.pid)); setTimeout(() => {}, 120000)";
  await writeFile(
    kit,
    JSON.stringify({
      format: "patchbay.toolkit",
      version: 1,
      name: "eras-kit",
      description: "Both eras, one toolkit.",
      tools: [
        { name: "echo", description: "Echoes.", inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] }, tags: ["ai:read_only"], run: { builtin: "echo" } },
        { name: "sleep", description: "Sleeps with progress.", inputSchema: { type: "object", properties: { seconds: { type: "number" } }, required: ["seconds"] }, run: { builtin: "sleep" } },
        { name: "confirm", description: "Needs approval.", inputSchema: { type: "object", properties: { action: { type: "string" } }, required: ["action"] }, tags: ["ai:confirm"], run: { builtin: "confirm" } },
        {
          name: "hold",
          description: "Writes its pid to a file and waits.",
          inputSchema: { type: "object", properties: { pidfile: { type: "string" } }, required: ["pidfile"] },
          run: { command: [process.execPath, "-e", holdScript], positionals: ["pidfile"], timeoutMs: 120_000 },
        },
      ],
    }),
  );
  http = await startHttpServe(built, [kit, "--fixtures"]);
}, 180_000);

afterAll(async () => {
  for (const client of open.splice(0)) await client.close().catch(() => undefined);
  await http?.stop();
  await built?.remove();
});

const textOf = (result: unknown) => ((result as { content: { text?: string }[] }).content[0]?.text ?? "");
let pidfiles = 0;
const pidfile = () => join(built.dir, `hold-${++pidfiles}.pid`);
async function heldPid(file: string): Promise<number> {
  await until(async () => (await readFile(file, "utf8").catch(() => "")) !== "", `the pid in ${file}`);
  return Number(await readFile(file, "utf8"));
}

const approving = { action: "accept" as const, content: { approve: true } };

/** What every client does the same way whatever its era: tools, resources, prompts, completion. */
/**
 * `lastProgressMayBeLate`: the SDK clients (v1 and v2) run notification handlers a microtask late
 * but settle a response at once, so over stdio, where the last progress and the result arrive in
 * one read, they can drop the last progress; the raw stdio test in serve-mcp-tasks sees all three
 * on the wire, before the result.
 */
async function commonFeatures(
  client: V1Client | V2Client,
  withProgress: (onprogress: (p: { progress: number }) => void) => Promise<unknown>,
  lastProgressMayBeLate = false,
): Promise<void> {
  const names = (await client.listTools()).tools.map((t) => t.name);
  expect(names).toEqual(expect.arrayContaining(["echo", "sleep", "confirm", "hold", "test_simple_text", "test_tool_with_progress"]));
  expect(textOf(await client.callTool({ name: "echo", arguments: { message: "both eras" } }))).toBe("both eras");
  expect((await client.callTool({ name: "echo", arguments: {} })).isError).toBe(true);
  expect((await client.listResources()).resources.map((r) => r.uri)).toContain("test://static-text");
  expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(["test://template/{id}/data"]);
  expect((await client.readResource({ uri: "test://template/7/data" })).contents[0]).toMatchObject({ uri: "test://template/7/data" });
  expect(JSON.stringify((await client.getPrompt({ name: "test_prompt_with_arguments", arguments: { arg1: "a", arg2: "b" } })).messages)).toContain('\\"a\\"');
  expect((await client.complete({ ref: { type: "ref/prompt", name: "test_prompt_with_arguments" }, argument: { name: "arg1", value: "pat" } })).completion.values).toEqual(["patchbay", "pattern"]);
  const progress: number[] = [];
  await withProgress((p) => void progress.push(p.progress));
  if (lastProgressMayBeLate) expect([[0, 50], [0, 50, 100]]).toContainEqual(progress);
  else expect(progress).toEqual([0, 50, 100]);
}

/** A `hold` call cancelled by the client ends the command's process. */
async function cancelEndsTheProcess(call: (args: object, signal: AbortSignal) => Promise<unknown>): Promise<void> {
  const file = pidfile();
  const abort = new AbortController();
  const calling = call({ pidfile: file }, abort.signal).catch((error: unknown) => error);
  const pid = await heldPid(file);
  expect(alive(pid)).toBe(true);
  abort.abort();
  await calling;
  await until(() => !alive(pid), `the held process ${pid} to end`);
}

describe.each(["http", "stdio"] as const)("patchbay serve --%s", (kind) => {
  it("the v1 SDK client (legacy): every feature, logging by session level, elicitation for approval, cancel", async () => {
    const elicited: string[] = [];
    const client = await v1Client(surfaces[kind](), { elicitation: {} });
    open.push(client);
    const { ElicitRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      elicited.push(String(request.params.message));
      return elicited.length === 1 ? approving : { action: "decline" };
    });
    expect(client.getServerVersion()?.name).toBe("eras-kit");
    expect(client.getServerCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    await commonFeatures(client, (onprogress) => client.callTool({ name: "test_tool_with_progress", arguments: {} }, undefined, { onprogress }), kind === "stdio");
    const logs: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.level));
    await client.setLoggingLevel("info");
    await client.callTool({ name: "test_tool_with_logging", arguments: {} });
    expect(logs).toEqual(["info", "info", "info"]);
    expect(textOf(await client.callTool({ name: "confirm", arguments: { action: "go" } }))).toBe("done: go");
    expect(textOf(await client.callTool({ name: "confirm", arguments: { action: "again" } }))).toMatch(/^Not run: the user declined/);
    expect(elicited[0]).toContain("Tool: confirm");
    await cancelEndsTheProcess((args, signal) => client.callTool({ name: "hold", arguments: args as Record<string, unknown> }, undefined, { signal }));
  }, 60_000);

  it("the v2 client negotiating legacy: initialize, a session, the same features, 2025-11-25 tasks by their method names", async () => {
    const client = await v2Client(surfaces[kind](), "legacy", { elicitation: {} });
    open.push(client);
    client.setRequestHandler("elicitation/create", async () => approving);
    expect(client.getProtocolEra()).toBe("legacy");
    expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
    await commonFeatures(client, (onprogress) => client.callTool({ name: "test_tool_with_progress", arguments: {} }, { onprogress }), kind === "stdio");
    const logs: string[] = [];
    client.setNotificationHandler("notifications/message", (n) => void logs.push(n.params.level));
    await client.setLoggingLevel("warning");
    await client.callTool({ name: "test_tool_with_logging", arguments: {} });
    await client.setLoggingLevel("info");
    await client.callTool({ name: "test_tool_with_logging", arguments: {} });
    await until(() => logs.length === 3, "three info logs");
    expect(textOf(await client.callTool({ name: "confirm", arguments: { action: "v2 legacy" } }))).toBe("done: v2 legacy");
    // The v2 client has no task methods of its own; they are sent by name, as any method is.
    const any = { "~standard": { version: 1 as const, vendor: "test", validate: (value: unknown) => ({ value: value as Record<string, unknown> }) } };
    const created = (await client.request({ method: "tools/call", params: { name: "sleep", arguments: { seconds: 0 }, task: {} } }, any)) as Record<string, unknown>;
    const taskId = (created.task as { taskId: string }).taskId;
    expect(await client.request({ method: "tasks/result", params: { taskId } }, any)).toMatchObject({ content: [{ text: "slept 0 s" }] });
    expect(await client.request({ method: "tasks/get", params: { taskId } }, any)).toMatchObject({ taskId, status: "completed" });
    const listed = (await client.request({ method: "tasks/list", params: {} }, any)) as { tasks: { taskId: string }[] };
    expect(listed.tasks.map((t) => t.taskId)).toContain(taskId);
    await cancelEndsTheProcess((args, signal) => client.callTool({ name: "hold", arguments: args as Record<string, unknown> }, { signal }));
  }, 60_000);

  it("the v2 client in auto mode lands on 2026-07-28: every feature, per-request log level, input_required approval, a tampered requestState refused, cancel", async () => {
    const client = await v2Client(surfaces[kind](), "auto", { elicitation: {} });
    open.push(client);
    let answer: { action: "accept" | "decline"; content?: { approve: boolean } } = approving;
    client.setRequestHandler("elicitation/create", async () => answer);
    expect(client.getProtocolEra()).toBe("modern");
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect(client.getServerCapabilities()?.extensions).toEqual({ "io.modelcontextprotocol/tasks": {} });
    await commonFeatures(client, (onprogress) => client.callTool({ name: "test_tool_with_progress", arguments: {} }, { onprogress }), kind === "stdio");
    const logs: string[] = [];
    client.setNotificationHandler("notifications/message", (n) => void logs.push(n.params.level));
    await client.callTool({ name: "test_logging_tool", arguments: {} });
    expect(logs).toEqual([]);
    await client.callTool({ name: "test_logging_tool", arguments: {}, _meta: { "io.modelcontextprotocol/logLevel": "info" } });
    expect(logs).toEqual(["info"]);
    expect(textOf(await client.callTool({ name: "confirm", arguments: { action: "modern" } }))).toBe("done: modern");
    answer = { action: "decline" };
    expect(textOf(await client.callTool({ name: "confirm", arguments: { action: "declined" } }))).toMatch(/^Not run: the user declined/);
    const asked = (await client.callTool({ name: "confirm", arguments: { action: "manual" } }, { allowInputRequired: true })) as unknown as { resultType: string; requestState: string };
    expect(asked.resultType).toBe("input_required");
    const tampered = await client
      .callTool({ name: "confirm", arguments: { action: "manual" }, inputResponses: { approve: approving }, requestState: `${asked.requestState}x` } as never, { allowInputRequired: true })
      .catch((error: unknown) => error as { code: number; message: string });
    expect(tampered).toMatchObject({ code: -32602, message: expect.stringContaining("Invalid requestState: it was altered") as unknown });
    const otherCall = await client
      .callTool({ name: "confirm", arguments: { action: "something else" }, inputResponses: { approve: approving }, requestState: asked.requestState } as never, { allowInputRequired: true })
      .catch((error: unknown) => error as { code: number; message: string });
    expect(otherCall).toMatchObject({ code: -32602, message: expect.stringContaining("issued for a different call") as unknown });
    await cancelEndsTheProcess((args, signal) => client.callTool({ name: "hold", arguments: args as Record<string, unknown> }, { signal }));
  }, 60_000);
});
