/**
 * The toolkit served as an A2A agent over HTTP (server/serving/a2a-engine.ts), on 127.0.0.1:
 *
 * - "Patchbay's own client…"        sendOneMessage in v1.0 and v0.3, JSON-RPC and HTTP+JSON, streamed and not
 * - "the @a2a-js/sdk client…"       ClientFactory (v1.0) and the SDK's v0.3 transports: send, stream, get, list, cancel, resubscribe
 * - "the cards…"                    both versions valid by Patchbay's own validator; a GET of the JSON-RPC URL
 * - "a command-tool toolkit…"       output as the artifact, exit codes, the default skill, cancel ends the process group
 * - "ai:confirm asked in the task…" input-required, answered yes over HTTP+JSON
 * - "loopback only…"                Host and Origin checked as for the MCP endpoint
 */
import { Role, TaskState, type Message, type Part } from "@a2a-js/sdk";
import { Client, ClientFactory, JsonRpcTransportFactory, RestTransportFactory } from "@a2a-js/sdk/client";
import { LegacyJsonRpcTransport, LegacyRestTransport, parseLegacyAgentCard } from "@a2a-js/sdk/compat/v0_3/client";
import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exchange, buildRequest, sendOneMessage, type ExchangePorts } from "../../src/core/a2a/index.ts";
import { silentLogger } from "../../src/core/env/index.ts";
import { createValidationEngine } from "../../src/core/packs/index.ts";
import { readToolkit } from "../../src/core/serving/toolkit/toolkit-read.ts";
import { startA2aServing, type A2aServing } from "../../server/serving/a2a-engine.ts";
import type { A2aFrame } from "../../server/serving/a2a-routes.ts";
import { alive } from "../helpers/processes.ts";
import { DEMO_TOOLKIT } from "../../src/core/serving/demo-toolkit.ts";

const ports: ExchangePorts = { fetch: (url, init) => fetch(url, init), now: () => performance.now() };
const engine = createValidationEngine();
const node = process.execPath;
let demo: A2aServing;
let kit: A2aServing;
let dir: string;
const frames: A2aFrame[] = [];

const commandKit = () =>
  readToolkit({
    format: "patchbay.toolkit",
    version: 1,
    name: "node-kit",
    description: "Command tools run with node.",
    tools: [
      { name: "say", description: "Prints its word.", inputSchema: { type: "object", properties: { word: { type: "string" } }, required: ["word"] }, run: { command: [node, "-e", "console.log('said ' + process.argv.at(-1))"], positionals: ["word"] } },
      { name: "exit-with", description: "Prints, then exits with the code.", inputSchema: { type: "object", properties: { code: { type: "integer" } }, required: ["code"] }, run: { command: [node, "-e", "console.log('partial'); process.exit(Number(process.argv.at(-1)))"], positionals: ["code"] } },
      {
        name: "hang",
        description: "Starts a child that sleeps, writes both pids, and waits.",
        inputSchema: { type: "object", properties: { pidfile: { type: "string" } }, required: ["pidfile"] },
        run: { command: [node, "-e", "const c = require('child_process').spawn('sleep', ['60'], { stdio: 'ignore' }); require('fs').writeFileSync(process.argv.at(-1), process.pid + ' ' + c.pid); setInterval(() => {}, 1000)"], positionals: ["pidfile"] },
      },
      { name: "approve-me", description: "Needs approval.", tags: ["ai:confirm"], inputSchema: { type: "object", properties: { what: { type: "string" } } }, run: { command: [node, "-e", "console.log('approved and ran ' + process.argv.at(-1))"], positionals: ["what"] } },
    ],
  }).toolkit!;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "a2a-serving-"));
  demo = await startA2aServing({ toolkit: DEMO_TOOLKIT, port: 0, logger: silentLogger, concurrency: 4, onFrame: (f) => frames.push(f) });
  kit = await startA2aServing({ toolkit: commandKit(), port: 0, logger: silentLogger, confirm: "ask", defaultSkill: "say" });
});
afterAll(async () => {
  await Promise.all([demo?.close(), kit?.close()]);
  await rm(dir, { recursive: true, force: true });
});

const textPart = (text: string): Part => ({ content: { $case: "text", value: text }, mediaType: "text/plain", filename: "", metadata: undefined });
const dataPart = (value: unknown): Part => ({ content: { $case: "data", value }, mediaType: "application/json", filename: "", metadata: undefined });
const message = (parts: Part[], taskId = ""): Message => ({ messageId: randomUUID(), contextId: "", taskId, role: Role.ROLE_USER, parts, metadata: undefined, extensions: [], referenceTaskIds: [] });
const partText = (parts: readonly Part[]) => parts.map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("");

describe("Patchbay's own client against the demo agent", () => {
  it.each([
    ["1.0", "jsonrpc"],
    ["1.0", "rest"],
    ["0.3", "jsonrpc"],
    ["0.3", "rest"],
  ] as const)("A2A %s over %s: a text message runs echo, sent and streamed, every frame valid", async (dialect, binding) => {
    for (const stream of [false, true]) {
      const seen: string[] = [];
      const got = await sendOneMessage(ports, { card: demo.baseUrl, text: `hello ${dialect} ${binding}`, dialect, binding, stream, newId: randomUUID, onFrame: (f) => seen.push(f.text) });
      expect(got.target).toMatchObject({ dialect, binding });
      expect(got.outcome).toMatchObject({ ok: true, kind: "task", task: { state: "completed" } });
      if (got.outcome.ok && got.outcome.kind === "task") expect(got.outcome.task.artifacts.map((a) => a.parts)).toEqual([[expect.objectContaining({ text: `hello ${dialect} ${binding}` })]]);
      expect(seen.length).toBeGreaterThan(0);
      // v0.3's HTTP+JSON bodies are its proto's JSON, for which there is no JSON Schema to check them by.
      if (dialect === "0.3" && binding === "rest") continue;
      for (const text of seen) expect(engine.session().validateText(text).status, text).toBe("valid");
    }
  });

  it("a data part runs the skill it names; progress arrives as working updates", async () => {
    const target = { url: demo.jsonRpcUrl, dialect: "1.0" as const, binding: "jsonrpc" as const };
    const spec = buildRequest(target, "stream", { message: { messageId: randomUUID(), parts: [{ kind: "data", data: { skill: "sleep", arguments: { seconds: 1.2 } } }] } });
    const result = await exchange(ports, spec, { dialect: "1.0", binding: "jsonrpc" });
    const task = result.fold.tasks()[0]!;
    expect(task.steps.map((s) => s.state)).toEqual(["submitted", "working", "working", "working", "completed"]);
    expect(task.steps.filter((s) => s.state === "working").map((s) => s.text)).toEqual([undefined, "1 of 2 s", "2 of 2 s"]);
    expect(task.artifacts[0]?.parts).toEqual([{ text: "slept 1.2 s", mediaType: "text/plain" }]);
  });
});

describe("the @a2a-js/sdk client", () => {
  it.each(["JSONRPC", "HTTP+JSON"] as const)("v1.0 over %s: send, stream, get, list, cancel, resubscribe", async (binding) => {
    const factory = new ClientFactory({ transports: [new JsonRpcTransportFactory(), new RestTransportFactory()], preferredTransports: [binding] });
    const client = await factory.createFromUrl(demo.baseUrl);
    const sent = await client.sendMessage({ tenant: "", message: message([dataPart({ skill: "add", arguments: { a: 20, b: 22 } })]), configuration: undefined, metadata: undefined });
    expect("status" in sent && sent.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    if (!("status" in sent)) return;
    expect(sent.artifacts[0]?.parts.map((p) => p.content)).toEqual([{ $case: "text", value: "42" }, { $case: "data", value: { sum: 42 } }]);
    const events = [];
    for await (const event of client.sendMessageStream({ tenant: "", message: message([textPart("streamed")]), configuration: undefined, metadata: undefined })) events.push(event.payload?.$case);
    expect(events).toEqual(["task", "statusUpdate", "artifactUpdate", "statusUpdate"]);
    expect((await client.getTask({ tenant: "", id: sent.id, historyLength: undefined })).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const listed = await client.listTasks({ tenant: "", contextId: "", status: TaskState.TASK_STATE_UNSPECIFIED, pageSize: 100, pageToken: "", historyLength: undefined, statusTimestampAfter: undefined, includeArtifacts: false });
    expect(listed.tasks.map((t) => t.id)).toContain(sent.id);
    const long = await client.sendMessage({ tenant: "", message: message([dataPart({ skill: "slow", arguments: { seconds: 30 } })]), configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: true }, metadata: undefined });
    if (!("status" in long)) throw new Error("expected a task");
    const following = client.resubscribeTask({ tenant: "", id: long.id });
    const first = await following.next();
    expect(first.value?.payload?.$case).toBe("task");
    const canceled = await client.cancelTask({ tenant: "", id: long.id, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const rest = [];
    for await (const event of following) rest.push(event.payload?.$case === "statusUpdate" ? event.payload.value.status?.state : event.payload?.$case);
    expect(rest.at(-1)).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it.each(["jsonrpc", "rest"] as const)("v0.3 over %s, through the SDK's v0.3 transport: send, stream, get, cancel", async (binding) => {
    const raw = (await (await fetch(demo.cardUrl)).json()) as unknown;
    const card = parseLegacyAgentCard(raw);
    const transport = binding === "jsonrpc" ? new LegacyJsonRpcTransport({ endpoint: demo.jsonRpcUrl }) : new LegacyRestTransport({ endpoint: demo.restUrl });
    const client = new Client(transport, card);
    const sent = await client.sendMessage({ tenant: "", message: message([textPart("old client")]), configuration: undefined, metadata: undefined });
    if (!("status" in sent)) throw new Error("expected a task");
    expect(sent.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(partText(sent.artifacts[0]?.parts ?? [])).toBe("old client");
    const kinds = [];
    for await (const event of client.sendMessageStream({ tenant: "", message: message([dataPart({ skill: "fail", arguments: { exit_code: 5 } })]), configuration: undefined, metadata: undefined })) kinds.push(event.payload?.$case);
    expect(kinds).toEqual(["task", "statusUpdate", "artifactUpdate", "statusUpdate"]);
    expect((await client.getTask({ tenant: "", id: sent.id, historyLength: 1 })).history).toHaveLength(1);
    const long = await client.sendMessage({ tenant: "", message: message([dataPart({ skill: "slow", arguments: { seconds: 30 } })]), configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: true }, metadata: undefined });
    if (!("status" in long)) throw new Error("expected a task");
    expect((await client.cancelTask({ tenant: "", id: long.id, metadata: undefined })).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });
});

describe("the cards", () => {
  it("the v0.3 card (no A2A-Version) and the v1.0 card are each valid; a GET of the JSON-RPC URL answers with the card", async () => {
    const legacy = await (await fetch(demo.cardUrl)).text();
    const current = await (await fetch(demo.cardUrl, { headers: { "A2A-Version": "1.0" } })).text();
    expect(JSON.parse(legacy)).toMatchObject({ protocolVersion: "0.3.0", url: demo.jsonRpcUrl, preferredTransport: "JSONRPC" });
    expect(JSON.parse(current)).not.toHaveProperty("url");
    for (const text of [legacy, current]) expect(engine.session().validateText(text).status, text).toBe("valid");
    expect(await (await fetch(demo.jsonRpcUrl)).text()).toBe(legacy);
    const refused = await fetch(demo.cardUrl, { headers: { "A2A-Version": "2.0" } });
    expect(refused.status).toBe(400);
  });

  it("the command toolkit's card lists its served tools, the confirm-gated one kept when asked", async () => {
    const card = (await (await fetch(kit.cardUrl)).json()) as { skills: { id: string }[] };
    expect(card.skills.map((s) => s.id)).toEqual(["say", "exit-with", "hang", "approve-me"]);
  });

  it("every request and answer went to the frame sink", () => {
    expect(frames.some((f) => f.binding === "jsonrpc" && f.direction === "in" && f.text.includes('"method"'))).toBe(true);
    expect(frames.some((f) => f.binding === "rest" && f.direction === "in" && f.text.includes('"message"'))).toBe(true);
    expect(frames.some((f) => f.binding === "rest" && f.direction === "out" && f.text.includes("statusUpdate"))).toBe(true);
    expect(frames.some((f) => f.binding === "card" && f.direction === "out")).toBe(true);
  });
});

describe("a command-tool toolkit", () => {
  const send = async (parts: Part[], blocking = true) => {
    const client = await new ClientFactory({ transports: [new JsonRpcTransportFactory()] }).createFromUrl(kit.baseUrl);
    const answer = await client.sendMessage({ tenant: "", message: message(parts), configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: !blocking }, metadata: undefined });
    if (!("status" in answer)) throw new Error("expected a task");
    return { client, task: answer };
  };

  it("runs the command, its output the artifact; a text-only message runs the default skill", async () => {
    const { task } = await send([dataPart({ skill: "say", arguments: { word: "hi" } })]);
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(partText(task.artifacts[0]?.parts ?? [])).toBe("said hi\n");
    expect(task.artifacts[0]?.metadata).toMatchObject({ exitCode: 0 });
    expect(partText((await send([textPart("plain")])).task.artifacts[0]?.parts ?? [])).toBe("said plain\n");
  });

  it("a non-zero exit is a failed task that keeps its output", async () => {
    const { task } = await send([dataPart({ skill: "exit-with", arguments: { code: 7 } })]);
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(partText(task.status?.message?.parts ?? [])).toMatch(/exited with code 7; its output is the task's artifact$/);
    expect(partText(task.artifacts[0]?.parts ?? [])).toBe("partial\n");
  });

  it("cancel ends the whole process group", async () => {
    const pidfile = join(dir, `pids-${randomUUID()}`);
    const { client, task } = await send([dataPart({ skill: "hang", arguments: { pidfile } })], false);
    let pids: number[] = [];
    for (let i = 0; i < 200 && pids.length < 2; i++) {
      pids = (await readFile(pidfile, "utf8").catch(() => "")).split(" ").filter(Boolean).map(Number);
      if (pids.length < 2) await new Promise((r) => setTimeout(r, 25));
    }
    expect(pids).toHaveLength(2);
    for (const pid of pids) expect(alive(pid)).toBe(true);
    expect((await client.cancelTask({ tenant: "", id: task.id, metadata: undefined })).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    for (let i = 0; i < 200 && pids.some(alive); i++) await new Promise((r) => setTimeout(r, 25));
    expect(pids.filter(alive)).toEqual([]);
  });
});

describe("ai:confirm asked in the task", () => {
  it("stops at input-required; yes over HTTP+JSON runs the command in the same task", async () => {
    const client = await new ClientFactory({ transports: [new RestTransportFactory()] }).createFromUrl(kit.baseUrl);
    const asked = await client.sendMessage({ tenant: "", message: message([dataPart({ skill: "approve-me", arguments: { what: "it" } })]), configuration: undefined, metadata: undefined });
    if (!("status" in asked)) throw new Error("expected a task");
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(partText(asked.status?.message?.parts ?? [])).toContain("Approve?");
    const done = await client.sendMessage({ tenant: "", message: message([textPart("yes")], asked.id), configuration: undefined, metadata: undefined });
    if (!("status" in done)) throw new Error("expected a task");
    expect(done).toMatchObject({ id: asked.id, status: { state: TaskState.TASK_STATE_COMPLETED } });
    expect(partText(done.artifacts[0]?.parts ?? [])).toBe("approved and ran it\n");
  });
});

describe("loopback only, Host and Origin checked", () => {
  it("refuses a foreign Host or Origin, and answers a loopback page with CORS", async () => {
    const { request } = await import("node:http");
    const get = (headers: Record<string, string>) =>
      new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
        const req = request({ host: "127.0.0.1", port: demo.port, path: "/.well-known/agent-card.json", headers }, (res) => {
          let body = "";
          res.on("data", (c: Buffer) => (body += c.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        });
        req.on("error", reject);
        req.end();
      });
    expect((await get({ host: `evil.example:${demo.port}` })).status).toBe(403);
    expect((await get({ host: `127.0.0.1:${demo.port}`, origin: "https://evil.example" })).status).toBe(403);
    const page = await get({ host: `localhost:${demo.port}`, origin: "http://localhost:5173" });
    expect(page.status).toBe(200);
    expect(page.headers["access-control-allow-origin"]).toBe("http://localhost:5173");
    const missing = await fetch(`${demo.baseUrl}/nope`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toContain("/.well-known/agent-card.json");
  });
});
