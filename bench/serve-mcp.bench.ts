/**
 * `tools/call echo` on Patchbay's served MCP endpoint (the backend's /api/serve/mcp, demo agent:
 * schema check, semaphore, frame recording, resumable streams) versus a minimal `McpServer` from
 * the same SDK with one echo tool on the SDK's Streamable HTTP transport, in the same run,
 * alternating rounds. Both are driven by the SDK client over Streamable HTTP on 127.0.0.1.
 * Reports sequential latency (p50, p95) and throughput with 8 calls in flight, and the ratios.
 * Usage: node bench/run.mjs serve-mcp [--count N] [--rounds R]
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { randomUUID } from "node:crypto";
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import * as z from "zod";
import { startTestBackend, send } from "../tests/helpers/http-client.ts";
import { option, percentile } from "./bench-stats.ts";

const IN_FLIGHT = 8;
const CLIENT_INFO = { name: "patchbay-bench", version: "0.0.0" };

/** The baseline: one McpServer and one transport per session, as the SDK intends. */
async function startBaseline(): Promise<{ url: string; close(): Promise<void> }> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http: HttpServer = createServer((req, res) => {
    const id = req.headers["mcp-session-id"];
    const known = typeof id === "string" ? sessions.get(id) : undefined;
    if (known) return void known.handleRequest(req, res);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, onsessioninitialized: (sid) => void sessions.set(sid, transport) });
    const server = new McpServer({ name: "baseline", version: "0.0.0" });
    server.registerTool("echo", { description: "Echoes.", inputSchema: { message: z.string() } }, async ({ message }) => ({ content: [{ type: "text", text: message }] }));
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((resolve) => http.listen({ host: "127.0.0.1", port: 0 }, resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const transport of sessions.values()) void transport.close();
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}

interface Side {
  readonly label: string;
  readonly client: Client;
  readonly latencies: number[];
  readonly rates: number[];
}

export async function run(args: readonly string[]): Promise<number> {
  const count = option(args, "--count", 600);
  const rounds = option(args, "--rounds", 5);
  const backend = await startTestBackend();
  const baseline = await startBaseline();
  const clients: Client[] = [];
  let wrong = 0;
  try {
    const started = await send({
      port: backend.port,
      method: "POST",
      path: "/api/serve/mcp/start",
      headers: { ...backend.auth, "content-type": "application/json" },
      body: JSON.stringify({ port: 0, concurrency: IN_FLIGHT }),
    });
    const ours = started.json<{ url: string }>().url;
    const connect = async (url: string) => {
      const client = new Client(CLIENT_INFO);
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      clients.push(client);
      return client;
    };
    const sides: Side[] = [
      { label: "Patchbay endpoint", client: await connect(ours), latencies: [], rates: [] },
      { label: "minimal McpServer", client: await connect(baseline.url), latencies: [], rates: [] },
    ];
    const call = async (side: Side, i: number) => {
      const result = await side.client.callTool({ name: "echo", arguments: { message: `bench ${i}` } });
      if ((result.content as { text?: string }[])[0]?.text !== `bench ${i}`) wrong++;
    };
    for (const side of sides) for (let i = 0; i < 100; i++) await call(side, i);

    const perRound = Math.max(1, Math.floor(count / rounds));
    for (let r = 0; r < rounds; r++) {
      for (const side of sides) {
        for (let i = 0; i < perRound; i++) {
          const t0 = performance.now();
          await call(side, i);
          side.latencies.push((performance.now() - t0) * 1000);
        }
        let next = 0;
        const t0 = performance.now();
        await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
          while (next < perRound) await call(side, next++);
        }));
        side.rates.push(perRound / ((performance.now() - t0) / 1000));
      }
    }

    const [mine, base] = sides as [Side, Side];
    const rate = (side: Side) => percentile(side.rates, 0.5);
    const line = (side: Side) =>
      `  ${side.label.padEnd(18)} p50 ${percentile(side.latencies, 0.5).toFixed(0)} µs, p95 ${percentile(side.latencies, 0.95).toFixed(0)} µs, ` +
      `${rate(side).toFixed(0)} calls/s with ${IN_FLIGHT} in flight`;
    process.stdout.write(
      [
        `serve-mcp bench: tools/call echo, ${mine.latencies.length} sequential calls and ${perRound * rounds} with ${IN_FLIGHT} in flight per side, ${rounds} alternating rounds`,
        line(mine),
        line(base),
        `  ratio (Patchbay / minimal McpServer): p50 ${(percentile(mine.latencies, 0.5) / percentile(base.latencies, 0.5)).toFixed(2)}×, throughput ${(rate(mine) / rate(base)).toFixed(2)}×`,
        "",
      ].join("\n"),
    );
    if (wrong > 0) {
      process.stderr.write(`${wrong} calls came back wrong\n`);
      return 1;
    }
    return 0;
  } finally {
    for (const client of clients) await client.close().catch(() => undefined);
    await baseline.close();
    await backend.close();
  }
}
