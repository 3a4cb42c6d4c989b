/**
 * v0.3 JSON-RPC `message/send` (blocking) of a text message that runs echo, on Patchbay's served
 * A2A agent (startA2aServing with the demo toolkit: its own listener with Host and Origin checks,
 * the served handler's rules, the toolkit executor with schema check and semaphore, the bounded
 * task store) versus a bare @a2a-js/sdk agent: DefaultRequestHandler, InMemoryTaskStore and an
 * executor that publishes the same four events (task, working, the echoed text as an artifact,
 * completed), on the SDK's own Express JSON-RPC handler; and, as the floor, the same bare agent
 * behind the SDK's JSON-RPC transport handler on a plain node:http server (no Express), which
 * leaves only what the SDK itself costs. Same process, alternating rounds, one plain fetch client
 * over 127.0.0.1 for all. The demo echo is a built-in (no process spawn).
 * Reports sequential latency (p50, p95), the process's CPU time per sequential call (client and
 * server; the client is the same for every side, and CPU time is less disturbed than latency by
 * other work on the machine), throughput with 8 in flight, and the ratios.
 * Usage: node bench/run.mjs serve-a2a [--count N] [--rounds R]
 */
import { randomUUID } from "node:crypto";
import { createServer, type Server as HttpServer } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { TaskState, type AgentCard, type Part } from "@a2a-js/sdk";
import { LegacyJsonRpcTransportHandler } from "@a2a-js/sdk/compat/v0_3/server";
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore, ServerCallContext, UnauthenticatedUser, type AgentExecutor } from "@a2a-js/sdk/server";
import { jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import { silentLogger } from "../src/core/env/index.ts";
import { DEMO_TOOLKIT } from "../src/core/serving/demo-toolkit.ts";
import { startA2aServing } from "../server/serving/a2a-engine.ts";
import { option, percentile } from "./bench-stats.ts";

const IN_FLIGHT = 8;
const PATH = "/a2a/jsonrpc";

/** The few members of Express used here (it ships no type declarations). */
interface ExpressApp {
  (req: unknown, res: unknown): void;
  use(path: string, handler: unknown): void;
}
const express = createRequire(import.meta.url)("express") as () => ExpressApp;

const textOf = (parts: readonly Part[]): string => parts.map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("");

/** The baseline agent: echo with the same task lifecycle as the served one, and nothing else. */
const echoExecutor: AgentExecutor = {
  execute: async (ctx, bus) => {
    const { taskId, contextId } = ctx;
    const now = () => new Date().toISOString();
    bus.publish(AgentEvent.task({ id: taskId, contextId, status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() }, artifacts: [], history: [ctx.userMessage], metadata: undefined }));
    bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: now() }, metadata: undefined }));
    const part: Part = { content: { $case: "text", value: textOf(ctx.userMessage.parts) }, mediaType: "text/plain", filename: "", metadata: undefined };
    const artifact = { artifactId: randomUUID(), name: "result", description: "", parts: [part], metadata: undefined, extensions: [] };
    bus.publish(AgentEvent.artifactUpdate({ taskId, contextId, artifact, append: false, lastChunk: true, metadata: undefined }));
    bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: { state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: now() }, metadata: undefined }));
    bus.finished();
  },
  cancelTask: async () => undefined,
};

async function listen(http: HttpServer): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => http.listen({ host: "127.0.0.1", port: 0 }, resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}${PATH}`,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}

function bareHandler(url: string): DefaultRequestHandler {
  const card: AgentCard = {
    name: "baseline",
    description: "Echoes.",
    supportedInterfaces: [{ url, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "0.3" }],
    provider: undefined,
    version: "0.0.0",
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [{ id: "echo", name: "echo", description: "Echoes.", tags: ["tool"], examples: [], inputModes: ["text/plain"], outputModes: ["text/plain"], securityRequirements: [] }],
    signatures: [],
  };
  return new DefaultRequestHandler(card, new InMemoryTaskStore(), echoExecutor);
}

/** The bare agent on the SDK's Express JSON-RPC handler, as the SDK's examples serve one. */
async function startExpressBaseline(): Promise<{ url: string; close(): Promise<void> }> {
  const http = createServer();
  const listening = await listen(http);
  const app = express();
  app.use(PATH, jsonRpcHandler({ requestHandler: bareHandler(listening.url), userBuilder: UserBuilder.noAuthentication, legacyCompat: { enabled: true } }));
  http.on("request", app);
  return listening;
}

/** The floor: the bare agent behind the SDK's v0.3 JSON-RPC transport handler, body in and JSON out, nothing else. */
async function startPlainBaseline(): Promise<{ url: string; close(): Promise<void> }> {
  const http = createServer();
  const listening = await listen(http);
  const rpc = new LegacyJsonRpcTransportHandler(bareHandler(listening.url));
  http.on("request", (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const context = new ServerCallContext({ user: new UnauthenticatedUser() });
      void rpc.handle(JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>, context).then((answer) => {
        const text = JSON.stringify(answer);
        res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
        res.end(text);
      });
    });
  });
  return listening;
}

interface Side {
  readonly label: string;
  readonly url: string;
  readonly latencies: number[];
  readonly rates: number[];
  /** Process CPU time (client and server, µs) per sequential call, one figure per round. */
  readonly cpu: number[];
}

interface Answer {
  readonly result?: { readonly kind?: string; readonly status?: { readonly state?: string }; readonly artifacts?: readonly { readonly parts?: readonly { readonly text?: string }[] }[] };
}

export async function run(args: readonly string[]): Promise<number> {
  const count = option(args, "--count", 1000);
  const rounds = option(args, "--rounds", 10);
  const served = await startA2aServing({ toolkit: DEMO_TOOLKIT, port: 0, logger: silentLogger, concurrency: IN_FLIGHT });
  const onExpress = await startExpressBaseline();
  const plain = await startPlainBaseline();
  let wrong = 0;
  let sent = 0;
  try {
    const sides: Side[] = [
      { label: "Patchbay agent", url: served.jsonRpcUrl, latencies: [], rates: [], cpu: [] },
      { label: "bare SDK on Express", url: onExpress.url, latencies: [], rates: [], cpu: [] },
      { label: "bare SDK on node:http", url: plain.url, latencies: [], rates: [], cpu: [] },
    ];
    const call = async (side: Side, i: number) => {
      const text = `bench ${i}`;
      const message = { kind: "message", messageId: `m${++sent}`, role: "user", parts: [{ kind: "text", text }] };
      const res = await fetch(side.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: sent, method: "message/send", params: { message } }) });
      const answer = (await res.json()) as Answer;
      const task = answer.result;
      if (res.status !== 200 || task?.kind !== "task" || task.status?.state !== "completed" || task.artifacts?.[0]?.parts?.[0]?.text !== text) wrong++;
    };
    for (const side of sides) for (let i = 0; i < 200; i++) await call(side, i);

    const perRound = Math.max(1, Math.floor(count / rounds));
    for (let r = 0; r < rounds; r++) {
      // Each round starts with the next side, so no side always follows the same one.
      for (let k = 0; k < sides.length; k++) {
        const side = sides[(r + k) % sides.length] as Side;
        const cpu0 = process.cpuUsage();
        for (let i = 0; i < perRound; i++) {
          const t0 = performance.now();
          await call(side, i);
          side.latencies.push((performance.now() - t0) * 1000);
        }
        const used = process.cpuUsage(cpu0);
        side.cpu.push((used.user + used.system) / perRound);
        let next = 0;
        const t0 = performance.now();
        await Promise.all(
          Array.from({ length: IN_FLIGHT }, async () => {
            while (next < perRound) await call(side, next++);
          }),
        );
        side.rates.push(perRound / ((performance.now() - t0) / 1000));
      }
    }

    const [mine, ...bases] = sides as [Side, Side, Side];
    const rate = (side: Side) => percentile(side.rates, 0.5);
    const cpu = (side: Side) => percentile(side.cpu, 0.5);
    const p = (side: Side, q: number) => percentile(side.latencies, q);
    const line = (side: Side) => `  ${side.label.padEnd(22)} p50 ${p(side, 0.5).toFixed(0)} µs, p95 ${p(side, 0.95).toFixed(0)} µs, CPU ${cpu(side).toFixed(0)} µs per call; ${rate(side).toFixed(0)} calls/s with ${IN_FLIGHT} in flight`;
    process.stdout.write(
      [
        `serve-a2a bench: v0.3 message/send (blocking) running echo, ${mine.latencies.length} sequential calls and ${perRound * rounds} with ${IN_FLIGHT} in flight per side, ${rounds} alternating rounds`,
        ...sides.map(line),
        ...bases.map(
          (base) =>
            `  Patchbay / ${base.label}: latency p50 ${(p(mine, 0.5) / p(base, 0.5)).toFixed(2)}×, p95 ${(p(mine, 0.95) / p(base, 0.95)).toFixed(2)}×, CPU ${(cpu(mine) / cpu(base)).toFixed(2)}×; ` +
            `throughput ${(rate(mine) / rate(base)).toFixed(2)}× (time per call ${(rate(base) / rate(mine)).toFixed(2)}×)`,
        ),
        `  tasks held by the Patchbay agent: ${served.agent.taskCount()} (at most the finished-task bound)`,
        "",
      ].join("\n"),
    );
    if (wrong > 0) {
      process.stderr.write(`${wrong} calls came back wrong\n`);
      return 1;
    }
    return 0;
  } finally {
    await onExpress.close();
    await plain.close();
    await served.close();
  }
}
