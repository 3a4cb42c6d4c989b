/**
 * Tasks on `patchbay serve --http` and `--stdio` as real processes, in both eras: 2025-11-25
 * tasks with the v1 SDK client (start with params.task, status, result, list, cancel, each
 * session seeing its own), and the `io.modelcontextprotocol/tasks` extension with a raw
 * 2026-07-28 client (the server decides on a task for clients that declare the extension; status
 * with the result inlined, input through tasks/update, cancel). Cancelling a task ends its
 * command's process, as cancelling a call does. Also: a confirm-gated tool answered with
 * `input_required` and a signed requestState, and progress on the stdio wire before the result.
 */
import type { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CallToolResultSchema, CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  alive,
  rawModernHttp,
  rawModernStdio,
  startHttpServe,
  TASKS_EXTENSION,
  until,
  v1Client,
  type HttpServe,
  type RawModern,
  type Surface,
} from "../helpers/served-cli.ts";
import { buildCli, type BuiltCli } from "../helpers/serve-processes.ts";

let built: BuiltCli;
let http: HttpServe;
let kit: string;
const open: { close(): Promise<void> }[] = [];
const surface = (kind: "http" | "stdio"): Surface => (kind === "http" ? { kind, url: http.url } : { kind, built, args: [kit, "--fixtures"] });

beforeAll(async () => {
  built = await buildCli();
  kit = join(built.dir, "tasks-kit.json");
  const holdScript = "require('fs').writeFileSync(process.argv.at(-1), String(process.pid)); setTimeout(() => {}, 120000)";
  await writeFile(
    kit,
    JSON.stringify({
      format: "patchbay.toolkit",
      version: 1,
      name: "tasks-kit",
      description: "Tasks in both eras.",
      tools: [
        { name: "echo", description: "Echoes.", inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] }, run: { builtin: "echo" } },
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
  http = await startHttpServe(built, [kit, "--fixtures", "--confirm", "always"]);
}, 180_000);

afterAll(async () => {
  for (const client of open.splice(0)) await client.close().catch(() => undefined);
  await http?.stop();
  await built?.remove();
});

let pidfiles = 0;
const pidfile = () => join(built.dir, `task-hold-${++pidfiles}.pid`);
async function heldPid(file: string): Promise<number> {
  await until(async () => (await readFile(file, "utf8").catch(() => "")) !== "", `the pid in ${file}`);
  return Number(await readFile(file, "utf8"));
}
const textOf = (result: unknown) => ((result as { content?: { text?: string }[] }).content?.[0]?.text ?? "");

describe.each(["http", "stdio"] as const)("2025-11-25 tasks over --%s, with the v1 SDK client", (kind) => {
  async function connect(): Promise<V1Client> {
    const client = await v1Client(surface(kind));
    open.push(client);
    return client;
  }

  it("starts a call as a task, reads its status, its result and the list; cancelling one ends its process", async () => {
    const client = await connect();
    const listed = (await client.listTools()).tools;
    expect(listed.find((t) => t.name === "sleep")?.execution).toEqual({ taskSupport: "optional" });
    expect(listed.find((t) => t.name === "echo")?.execution).toBeUndefined();
    const created = await client.request({ method: "tools/call", params: { name: "sleep", arguments: { seconds: 1 } } }, CreateTaskResultSchema, { task: {} });
    const id = created.task.taskId;
    expect(created.task).toMatchObject({ status: "working", ttl: 3_600_000, pollInterval: 500 });
    expect(await client.experimental.tasks.getTask(id)).toMatchObject({ taskId: id, status: "working" });
    const result = await client.experimental.tasks.getTaskResult(id, CallToolResultSchema);
    expect(textOf(result)).toBe("slept 1 s");
    expect(result._meta?.["io.modelcontextprotocol/related-task"]).toEqual({ taskId: id });
    expect(await client.experimental.tasks.getTask(id)).toMatchObject({ status: "completed" });

    const file = pidfile();
    const held = await client.request({ method: "tools/call", params: { name: "hold", arguments: { pidfile: file } } }, CreateTaskResultSchema, { task: {} });
    const pid = await heldPid(file);
    expect(alive(pid)).toBe(true);
    expect(((await client.experimental.tasks.listTasks()) as { tasks: { taskId: string }[] }).tasks.map((t) => t.taskId)).toEqual([id, held.task.taskId]);
    expect(await client.experimental.tasks.cancelTask(held.task.taskId)).toMatchObject({ taskId: held.task.taskId, status: "cancelled" });
    await until(() => !alive(pid), `the held process ${pid} to end`);
    await expect(client.experimental.tasks.getTaskResult(held.task.taskId, CallToolResultSchema)).rejects.toThrow(/was cancelled; it has no result/);
    await expect(client.experimental.tasks.cancelTask(id)).rejects.toThrow(/has already ended \(completed\)/);
  }, 60_000);

  it("refuses a task where a tool does not allow one, and a call without one where a tool needs it", async () => {
    const client = await connect();
    await expect(client.request({ method: "tools/call", params: { name: "echo", arguments: { message: "x" } } }, CreateTaskResultSchema, { task: {} })).rejects.toThrow(/echo cannot run as a task/);
    await expect(client.callTool({ name: "failing_job", arguments: {} })).rejects.toThrow(/failing_job runs only as a task/);
    await expect(client.experimental.tasks.getTask("no-such-task")).rejects.toThrow(/Unknown task "no-such-task"/);
  }, 30_000);

  if (kind === "http") {
    it("keeps each session's tasks to itself", async () => {
      const [one, two] = [await connect(), await connect()];
      const created = await one.request({ method: "tools/call", params: { name: "sleep", arguments: { seconds: 0 } } }, CreateTaskResultSchema, { task: {} });
      await expect(two.experimental.tasks.getTask(created.task.taskId)).rejects.toThrow(/Unknown task/);
      expect(((await two.experimental.tasks.listTasks()) as { tasks: unknown[] }).tasks).toEqual([]);
      expect(await one.experimental.tasks.getTask(created.task.taskId)).toMatchObject({ taskId: created.task.taskId });
    }, 30_000);
  }
});

describe.each(["http", "stdio"] as const)("the tasks extension over --%s, with a 2026-07-28 client", (kind) => {
  let raw: RawModern;
  beforeAll(() => {
    raw = kind === "http" ? rawModernHttp(http.url) : rawModernStdio(built, [kit, "--fixtures", "--confirm", "always"]);
    open.push(raw);
  });
  const ext = { extensions: { [TASKS_EXTENSION]: {} } };
  const get = async (taskId: string) => (await raw.request("tasks/get", { taskId }, ext)).result!;

  it("runs a long tool as a task for a client that declares the extension, the result inlined when it ends", async () => {
    const sync = await raw.request("tools/call", { name: "sleep", arguments: { seconds: 0 } });
    expect(sync.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "slept 0 s" }] });
    const created = (await raw.request("tools/call", { name: "sleep", arguments: { seconds: 1 } }, ext)).result!;
    expect(created).toMatchObject({ resultType: "task", status: "working", ttlMs: 3_600_000, pollIntervalMs: 500 });
    const id = created.taskId as string;
    expect(await get(id)).toMatchObject({ resultType: "complete", taskId: id, status: "working" });
    await until(async () => (await get(id)).status === "completed", "the task to complete");
    expect((await get(id)).result).toMatchObject({ content: [{ type: "text", text: "slept 1 s" }] });
    expect((await raw.request("tasks/list", {}, ext)).error?.code).toBe(-32601);
    expect((await raw.request("tasks/result", { taskId: id }, ext)).error?.code).toBe(-32601);
    const gated = await raw.request("tasks/get", { taskId: id });
    expect(gated.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } });
    if (kind === "http") expect(gated.status).toBe(400);
    expect((await raw.request("tasks/get", { taskId: "no-such-task" }, ext)).error?.code).toBe(-32602);
  }, 30_000);

  it("cancels a task: the ack is empty, the task reads cancelled, its process ends", async () => {
    const file = pidfile();
    const created = (await raw.request("tools/call", { name: "hold", arguments: { pidfile: file } }, ext)).result!;
    const pid = await heldPid(file);
    const ack = await raw.request("tasks/cancel", { taskId: created.taskId }, ext);
    expect(ack.result).toMatchObject({ resultType: "complete" });
    expect(ack.result).not.toHaveProperty("status");
    expect(await get(created.taskId as string)).toMatchObject({ status: "cancelled" });
    await until(() => !alive(pid), `the held process ${pid} to end`);
    expect((await raw.request("tasks/cancel", { taskId: created.taskId }, ext)).result).toMatchObject({ resultType: "complete" });
  }, 30_000);

  it("parks a task that needs input until tasks/update answers it", async () => {
    const created = (await raw.request("tools/call", { name: "confirm_delete", arguments: { filename: "notes.txt" } }, { ...ext, elicitation: {} })).result!;
    const id = created.taskId as string;
    await until(async () => (await get(id)).status === "input_required", "the task to ask");
    const waiting = await get(id);
    expect(Object.keys(waiting.inputRequests as object)).toEqual(["confirm"]);
    expect((await raw.request("tasks/update", { taskId: id, inputResponses: { confirm: { action: "accept", content: { confirm: true } } } }, ext)).result).toMatchObject({ resultType: "complete" });
    await until(async () => (await get(id)).status === "completed", "the task to finish");
    expect((await get(id)).result).toMatchObject({ content: [{ text: "Deleted notes.txt (nothing was really deleted)." }] });
  }, 30_000);

  it("asks approval of a confirm-gated tool with input_required, runs it on approval, and refuses an altered requestState", async () => {
    const caps = { elicitation: {} };
    const asked = (await raw.request("tools/call", { name: "confirm", arguments: { action: "deploy" } }, caps)).result!;
    expect(asked).toMatchObject({ resultType: "input_required", inputRequests: { approve: { method: "elicitation/create" } } });
    const state = asked.requestState as string;
    const approved = await raw.request("tools/call", { name: "confirm", arguments: { action: "deploy" }, inputResponses: { approve: { action: "accept", content: { approve: true } } }, requestState: state }, caps);
    expect(approved.result).toMatchObject({ resultType: "complete", content: [{ text: "done: deploy" }] });
    const refused = await raw.request("tools/call", { name: "confirm", arguments: { action: "deploy" }, inputResponses: { approve: { action: "accept", content: { approve: false } } }, requestState: state }, caps);
    expect(textOf(refused.result)).toMatch(/^Not run: the user reviewed confirm .* and chose not to run it/);
    const tampered = await raw.request("tools/call", { name: "confirm", arguments: { action: "deploy" }, inputResponses: { approve: { action: "accept", content: { approve: true } } }, requestState: `${state.slice(0, -2)}AA` }, caps);
    expect(tampered.error).toMatchObject({ code: -32602, message: expect.stringMatching(/^Invalid requestState: /) as unknown });
    const unsigned = await raw.request("tools/call", { name: "confirm", arguments: { action: "deploy" }, inputResponses: { approve: { action: "accept", content: { approve: true } } } }, caps);
    expect(unsigned.result).toMatchObject({ resultType: "input_required" });
    const cannotAsk = await raw.request("tools/call", { name: "confirm", arguments: { action: "deploy" } });
    expect(textOf(cannotAsk.result)).toMatch(/needs approval, and this client cannot be asked/);
  }, 30_000);
});

describe("the stdio wire", () => {
  it("carries every progress notification before the result", async () => {
    const child = spawn(process.execPath, [built.cli, "serve", "--stdio"], { cwd: built.dir, stdio: ["pipe", "pipe", "ignore"] });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString("utf8")));
    const meta = { progressToken: "p", "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "test_tool_with_progress", arguments: {}, _meta: meta } })}\n`);
    await until(() => out.includes('"id":1'), "the result");
    child.stdin.end();
    const frames = out.trimEnd().split("\n").map((line) => JSON.parse(line) as { method?: string; params?: { progress: number }; id?: number });
    expect(frames.map((f) => (f.method === "notifications/progress" ? f.params!.progress : `result ${f.id}`))).toEqual([0, 50, 100, "result 1"]);
  }, 30_000);
});
