/**
 * `patchbay serve` as a real process for the era tests: the bundled CLI (see buildCli in
 * serve-processes.ts), started over HTTP or stdio, and three kinds of peer:
 * the v1 SDK client (legacy), the v2 client (legacy or auto-negotiated), and a raw 2026-07-28
 * client that writes the `_meta` envelope and the standard headers itself (the tasks extension
 * has no SDK client here).
 */
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport as V2StdioTransport } from "@modelcontextprotocol/client/stdio";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as V1StdioTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { spawn, type ChildProcess } from "node:child_process";
import { SseSplitter } from "../../src/core/framing/sse-splitter.ts";
import type { BuiltCli } from "./serve-processes.ts";

export interface HttpServe {
  readonly url: string;
  readonly child: ChildProcess;
  readonly stderr: () => string;
  stop(): Promise<void>;
}

/** `patchbay serve --http --port 0 …args`, resolved once it prints its URL. */
export async function startHttpServe(built: BuiltCli, args: readonly string[]): Promise<HttpServe> {
  const child = spawn(process.execPath, [built.cli, "serve", "--http", "--port", "0", ...args], { cwd: built.dir, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout!.on("data", (c: Buffer) => (out += c.toString("utf8")));
  child.stderr!.on("data", (c: Buffer) => (err += c.toString("utf8")));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL within 60 s:\n${err}`)), 60_000);
    child.stdout!.on("data", () => {
      const found = / at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/.exec(out)?.[1];
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    });
    child.once("exit", (code) => reject(new Error(`exited ${code} before serving:\n${err}`)));
  });
  return {
    url,
    child,
    stderr: () => err,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Where a client reaches the agent: a URL, or the stdio command for a fresh process. */
export type Surface = { readonly kind: "http"; readonly url: string } | { readonly kind: "stdio"; readonly built: BuiltCli; readonly args: readonly string[] };

const INFO = { name: "eras-test", version: "0.0.0" };

export async function v1Client(surface: Surface, capabilities: ClientCapabilities = {}): Promise<V1Client> {
  const client = new V1Client(INFO, { capabilities });
  const transport =
    surface.kind === "http"
      ? new V1HttpTransport(new URL(surface.url))
      : new V1StdioTransport({ command: process.execPath, args: [surface.built.cli, "serve", "--stdio", ...surface.args], cwd: surface.built.dir, stderr: "pipe" });
  await client.connect(transport);
  return client;
}

/** The v2 client: `legacy` negotiates with initialize, `auto` probes server/discover first. */
export async function v2Client(surface: Surface, mode: "legacy" | "auto", capabilities: Record<string, unknown> = {}): Promise<V2Client> {
  const client = new V2Client(INFO, { capabilities: capabilities as never, versionNegotiation: { mode } });
  const transport =
    surface.kind === "http"
      ? new V2HttpTransport(new URL(surface.url))
      : new V2StdioTransport({ command: process.execPath, args: [surface.built.cli, "serve", "--stdio", ...surface.args], cwd: surface.built.dir, stderr: "pipe" });
  await client.connect(transport);
  return client;
}

export interface RpcAnswer {
  readonly status?: number;
  readonly id?: unknown;
  readonly result?: Record<string, unknown>;
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
}

/** A 2026-07-28 client by hand: every request carries the `_meta` envelope (and over HTTP the standard headers). */
export interface RawModern {
  request(method: string, params?: Record<string, unknown>, capabilities?: Record<string, unknown>): Promise<RpcAnswer>;
  close(): Promise<void>;
}

export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
const nameOf = (method: string, params: Record<string, unknown>) =>
  method === "tools/call" || method === "prompts/get" ? params.name : method === "resources/read" ? params.uri : method.startsWith("tasks/") ? params.taskId : undefined;

function envelope(params: Record<string, unknown>, capabilities: Record<string, unknown>): Record<string, unknown> {
  const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": INFO, "io.modelcontextprotocol/clientCapabilities": capabilities };
  return { ...params, _meta: { ...meta, ...(params._meta as Record<string, unknown> | undefined) } };
}

let nextId = 1;

export function rawModernHttp(url: string): RawModern {
  return {
    async request(method, params = {}, capabilities = {}) {
      const id = nextId++;
      const name = nameOf(method, params);
      const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": method };
      if (typeof name === "string") headers["mcp-name"] = name;
      const res = await fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id, method, params: envelope(params, capabilities) }) });
      const text = await res.text();
      const bodies = res.headers.get("content-type")?.includes("text/event-stream") ? new SseSplitter().push(`${text}\n\n`).map((e) => JSON.parse(e.data) as RpcAnswer) : [JSON.parse(text) as RpcAnswer];
      return { status: res.status, ...bodies.find((b) => b.id === id)! };
    },
    close: async () => undefined,
  };
}

export function rawModernStdio(built: BuiltCli, args: readonly string[]): RawModern {
  const child = spawn(process.execPath, [built.cli, "serve", "--stdio", ...args], { cwd: built.dir, stdio: ["pipe", "pipe", "pipe"] });
  const waiting = new Map<number, (answer: RpcAnswer) => void>();
  let buffer = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("utf8");
    const lines = buffer.split("\n");
    buffer = lines.pop() ?? "";
    for (const line of lines) {
      const message = JSON.parse(line) as RpcAnswer;
      if (typeof message.id === "number") waiting.get(message.id)?.(message);
    }
  });
  return {
    request(method, params = {}, capabilities = {}) {
      const id = nextId++;
      const answer = new Promise<RpcAnswer>((resolve) => waiting.set(id, resolve));
      child.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params: envelope(params, capabilities) })}\n`);
      return answer;
    },
    async close() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.stdin!.end();
      await exited;
    },
  };
}

/** Whether a process with this pid is still alive. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function until(check: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}
