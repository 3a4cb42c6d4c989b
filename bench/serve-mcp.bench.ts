/**
 * `tools/call echo` on Patchbay's served MCP endpoint (the backend's /api/serve/mcp, demo agent:
 * era routing, schema check, semaphore, frame recording, resumable streams) versus a minimal
 * server from the same SDK (the v2 server package, one echo tool), in the same run, alternating
 * rounds, in each era:
 *  - legacy: the v1 SDK client (initialize, a session) against a minimal `McpServer` on the v2
 *    SDK's sessionful Streamable HTTP transport, one server and transport per session;
 *  - modern: the v2 client pinned to 2026-07-28 (stateless, `_meta` on every request) against
 *    the v2 SDK's `createMcpHandler` with a minimal `McpServer` per request.
 * Both on 127.0.0.1. Reports sequential latency (p50, p95), throughput with 8 calls in flight,
 * and the ratios. Usage: node bench/run.mjs serve-mcp [--count N] [--rounds R]
 */
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createMcpHandler, McpServer, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import * as z from "zod";
import { writeWebResponse } from "../server/serving/web-response.ts";
import { startTestBackend, send } from "../tests/helpers/http-client.ts";
import { option, percentile } from "./bench-stats.ts";

const IN_FLIGHT = 8;
const CLIENT_INFO = { name: "patchbay-bench", version: "0.0.0" };

function minimalServer(): McpServer {
  const server = new McpServer({ name: "baseline", version: "0.0.0" });
  server.registerTool("echo", { description: "Echoes.", inputSchema: z.object({ message: z.string() }) }, async ({ message }) => ({ content: [{ type: "text", text: message }] }));
  return server;
}

async function webRequest(req: IncomingMessage, port: number): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
  const body = req.method === "POST" ? Buffer.concat(chunks) : undefined;
  return new Request(`http://127.0.0.1:${port}${req.url ?? "/"}`, { method: req.method ?? "GET", headers, ...(body ? { body } : {}) });
}

/** The baselines: legacy sessions (one McpServer and transport each) and the modern per-request handler, on one port. */
async function startBaseline(): Promise<{ url: string; close(): Promise<void> }> {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const modern = createMcpHandler(() => minimalServer(), { legacy: "reject" });
  const http: HttpServer = createServer((req, res) => {
    const port = (http.address() as AddressInfo).port;
    void (async () => {
      const request = await webRequest(req, port);
      const id = request.headers.get("mcp-session-id");
      const known = id === null ? undefined : sessions.get(id);
      let response: Response;
      if (known) response = await known.handleRequest(request);
      else if (request.headers.get("mcp-method") !== null) response = await modern.fetch(request);
      else {
        const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, onsessioninitialized: (sid) => void sessions.set(sid, transport) });
        await minimalServer().connect(transport);
        response = await transport.handleRequest(request);
      }
      await writeWebResponse(res, response);
    })();
  });
  await new Promise<void>((resolve) => http.listen({ host: "127.0.0.1", port: 0 }, resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    close: async () => {
      for (const transport of sessions.values()) await transport.close().catch(() => undefined);
      await modern.close();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}

interface Caller {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

interface Side {
  readonly label: string;
  readonly client: Caller;
  readonly latencies: number[];
  readonly rates: number[];
}

async function connect(era: "legacy" | "modern", url: string): Promise<Caller> {
  if (era === "legacy") {
    const client = new Client(CLIENT_INFO);
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    return client;
  }
  const client = new ModernClient(CLIENT_INFO, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(new ModernHttpTransport(new URL(url)));
  if (client.getProtocolEra() !== "modern") throw new Error(`the ${url} connection is ${client.getProtocolEra()}, not modern`);
  return client;
}

/** Sequential latencies and throughput in flight, alternating the two sides round by round. */
async function measure(sides: readonly [Side, Side], count: number, rounds: number, wrong: { n: number }): Promise<number> {
  const call = async (side: Side, i: number) => {
    const result = (await side.client.callTool({ name: "echo", arguments: { message: `bench ${i}` } })) as { content: { text?: string }[] };
    if (result.content[0]?.text !== `bench ${i}`) wrong.n++;
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
  return perRound;
}

const rate = (side: Side) => percentile(side.rates, 0.5);
const line = (side: Side) =>
  `  ${side.label.padEnd(30)} p50 ${percentile(side.latencies, 0.5).toFixed(0)} µs, p95 ${percentile(side.latencies, 0.95).toFixed(0)} µs, ${rate(side).toFixed(0)} calls/s with ${IN_FLIGHT} in flight`;

export async function run(args: readonly string[]): Promise<number> {
  const count = option(args, "--count", 600);
  const rounds = option(args, "--rounds", 5);
  const backend = await startTestBackend();
  const baseline = await startBaseline();
  const clients: Caller[] = [];
  const wrong = { n: 0 };
  try {
    const started = await send({
      port: backend.port,
      method: "POST",
      path: "/api/serve/mcp/start",
      headers: { ...backend.auth, "content-type": "application/json" },
      body: JSON.stringify({ port: 0, concurrency: IN_FLIGHT }),
    });
    const ours = started.json<{ url: string }>().url;
    const out: string[] = [];
    for (const era of ["legacy", "modern"] as const) {
      const side = async (label: string, url: string): Promise<Side> => {
        const client = await connect(era, url);
        clients.push(client);
        return { label, client, latencies: [], rates: [] };
      };
      const sides = [await side(`Patchbay endpoint (${era})`, ours), await side(`minimal v2 server (${era})`, baseline.url)] as const;
      const perRound = await measure(sides, count, rounds, wrong);
      const [mine, base] = sides;
      out.push(
        `serve-mcp bench, ${era} era: tools/call echo, ${mine.latencies.length} sequential calls and ${perRound * rounds} with ${IN_FLIGHT} in flight per side, ${rounds} alternating rounds`,
        line(mine),
        line(base),
        `  ratio (Patchbay / minimal v2 server, ${era}): p50 ${(percentile(mine.latencies, 0.5) / percentile(base.latencies, 0.5)).toFixed(2)}×, throughput ${(rate(mine) / rate(base)).toFixed(2)}×`,
      );
    }
    process.stdout.write(`${out.join("\n")}\n`);
    if (wrong.n > 0) {
      process.stderr.write(`${wrong.n} calls came back wrong\n`);
      return 1;
    }
    return 0;
  } finally {
    for (const client of clients) await client.close().catch(() => undefined);
    await baseline.close();
    await backend.close();
  }
}
