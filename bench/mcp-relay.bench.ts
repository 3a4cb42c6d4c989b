/**
 * `tools/call echo` through the backend relay (McpConnection over RelayTransport, a relay session
 * of transport streamable-http) versus the MCP SDK client calling the same server directly over
 * Streamable HTTP, in the same run against one server-everything process, alternating rounds.
 * Also McpConnection directly over the SDK's HTTP transport, to separate the relay's share from
 * the client's. Sequential calls; latency per call in microseconds. Goal: relay adds ≤ 1 ms at p50.
 * Usage: node bench/run.mjs mcp-relay [--count N] [--rounds R]
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { sequentialIds, systemClock } from "../src/core/env/index.ts";
import { McpConnection, RelayTransport } from "../src/core/mcp/index.ts";
import { WireLog } from "../src/core/wire/index.ts";
import { freePort } from "../server/nats/free-port.ts";
import { startTestBackend, type TestBackend } from "../tests/helpers/http-client.ts";
import { mean, option, percentile } from "./bench-stats.ts";

const GOAL_MS = 1;
const EVERYTHING = join(process.cwd(), "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const CLIENT_INFO = { name: "patchbay-bench", version: "0.0.0" };

/** server-everything over Streamable HTTP on `port`; resolves once it says it is listening. */
function startEverything(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [EVERYTHING, "streamableHttp"], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] });
  return new Promise((resolve, reject) => {
    let stderr = "";
    const timer = setTimeout(() => fail(new Error(`server-everything did not start in 15 s: ${stderr}`)), 15_000);
    const fail = (err: Error) => {
      clearTimeout(timer);
      child.kill();
      reject(err);
    };
    child.once("error", fail);
    child.once("exit", (code) => fail(new Error(`server-everything exited (${code}): ${stderr}`)));
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      if (!stderr.includes("listening on port")) return;
      clearTimeout(timer);
      child.removeAllListeners("exit");
      resolve(child);
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

export async function run(args: readonly string[]): Promise<number> {
  const count = option(args, "--count", 300);
  const rounds = option(args, "--rounds", 5);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  const server = await startEverything(port);
  let backend: TestBackend | undefined;
  const closers: (() => Promise<void>)[] = [];
  try {
    backend = await startTestBackend();
    const clock = systemClock(performance, Date);

    const sdk = new Client(CLIENT_INFO);
    await sdk.connect(new StreamableHTTPClientTransport(new URL(url)));
    closers.push(() => sdk.close());

    const plain = new McpConnection();
    await plain.connect(new StreamableHTTPClientTransport(new URL(url)), { clientInfo: CLIENT_INFO, timeoutMs: 20_000 });
    closers.push(() => plain.close());

    const relay = new McpConnection();
    const transport = new RelayTransport({
      fetch: globalThis.fetch,
      baseUrl: `http://127.0.0.1:${backend.port}`,
      token: backend.token,
      session: { transport: "streamable-http", url },
      wireLog: new WireLog(clock, 10_000),
      clock,
      ids: sequentialIds("frame"),
    });
    await relay.connect(transport, { clientInfo: CLIENT_INFO, timeoutMs: 20_000 });
    closers.push(() => relay.close());
    // Both McpConnections check results against the listed tools, as the app does.
    await plain.listTools();
    await relay.listTools();

    let wrong = 0;
    const expected = (i: number) => `Echo: bench ${i}`;
    const textOf = (content: unknown) => (Array.isArray(content) ? (content[0] as { text?: unknown } | undefined)?.text : undefined);
    const direct = async (i: number): Promise<number> => {
      const t0 = performance.now();
      const r = await sdk.callTool({ name: "echo", arguments: { message: `bench ${i}` } });
      const us = (performance.now() - t0) * 1000;
      if (textOf(r.content) !== expected(i)) wrong++;
      return us;
    };
    const viaConnection = (connection: McpConnection) => async (i: number): Promise<number> => {
      const t0 = performance.now();
      const outcome = await connection.callTool("echo", { message: `bench ${i}` });
      const us = (performance.now() - t0) * 1000;
      if (outcome.kind !== "success" || textOf(outcome.result.content) !== expected(i)) wrong++;
      return us;
    };
    const direct2 = viaConnection(plain);
    const relayed = viaConnection(relay);

    for (let i = 0; i < 100; i++) {
      await direct(i);
      await direct2(i);
      await relayed(i);
    }
    const directUs: number[] = [];
    const plainUs: number[] = [];
    const relayUs: number[] = [];
    const perRound = Math.max(1, Math.floor(count / rounds));
    for (let r = 0; r < rounds; r++) {
      for (let i = 0; i < perRound; i++) directUs.push(await direct(i));
      for (let i = 0; i < perRound; i++) plainUs.push(await direct2(i));
      for (let i = 0; i < perRound; i++) relayUs.push(await relayed(i));
    }

    const line = (label: string, xs: number[]) =>
      `  ${label} p50 ${percentile(xs, 0.5).toFixed(0)} µs, p95 ${percentile(xs, 0.95).toFixed(0)} µs, mean ${mean(xs).toFixed(0)} µs`;
    const overheadMs = (percentile(relayUs, 0.5) - percentile(directUs, 0.5)) / 1000;
    const relayShareMs = (percentile(relayUs, 0.5) - percentile(plainUs, 0.5)) / 1000;
    const out = [
      `mcp-relay bench: ${relayUs.length} sequential tools/call echo each, ${rounds} alternating rounds, one server-everything over Streamable HTTP`,
      line("direct: SDK Client, Streamable HTTP:          ", directUs),
      line("direct: McpConnection, Streamable HTTP:       ", plainUs),
      line("relay:  McpConnection over RelayTransport:    ", relayUs),
      `  overhead p50 = relay p50 − direct p50 = ${overheadMs.toFixed(3)} ms; goal ≤ ${GOAL_MS} ms: ${overheadMs <= GOAL_MS ? "met" : "NOT met"}`,
      `  of which the relay hop alone (relay − McpConnection direct): ${relayShareMs.toFixed(3)} ms`,
    ];
    process.stdout.write(`${out.join("\n")}\n`);
    if (wrong > 0) {
      process.stderr.write(`${wrong} calls came back wrong\n`);
      return 1;
    }
    return 0;
  } finally {
    for (const close of closers.reverse()) await close().catch(() => {});
    await backend?.close();
    await stopChild(server);
  }
}
