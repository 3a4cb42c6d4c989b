/**
 * One MCP session for `call mcp`, through the console's own client (core's McpConnection): a
 * stdio server through the relay's stdio peer, an HTTP server through the page's direct
 * transport. A server that refuses Streamable HTTP's POST with a 4xx is tried again over the
 * legacy HTTP+SSE transport, as the MCP specification's backwards-compatibility rule says.
 */
import { sequentialIds, systemClock } from "../../src/core/env/index.ts";
import { FrameRecorder } from "../../src/core/mcp/frame-recorder.ts";
import { DirectTransport, McpConnectError, McpConnection, type ConnectResult } from "../../src/core/mcp/index.ts";
import type { SchemaCompiler } from "../../src/core/schema/compiler.ts";
import { WireLog } from "../../src/core/wire/index.ts";
import { StdioClientTransport } from "../mcp/stdio-client-transport.ts";
import { VERSION } from "../version.ts";
import type { McpTarget } from "./call-mcp-args.ts";

export interface McpSession {
  readonly connection: McpConnection;
  readonly info: ConnectResult;
  /** How the server was reached, for the line on stderr. */
  readonly via: string;
  /** The server process's last stderr lines (stdio), for a failure after connecting. */
  readonly serverStderr: () => readonly string[];
}

export type ConnectAttempt = { readonly ok: true; readonly session: McpSession } | { readonly ok: false; readonly message: string; readonly serverStderr: readonly string[] };

export interface ConnectDeps {
  readonly compiler: SchemaCompiler;
  readonly timeoutMs: number;
  readonly stderr: (text: string) => void;
  readonly signal?: AbortSignal;
  readonly fetch?: typeof fetch;
  /** Where every frame of the session is recorded (stdio too); a private log by default. */
  readonly wireLog?: WireLog;
}

type Transport = Parameters<McpConnection["connect"]>[0];

const clock = systemClock(performance, Date);
const CLIENT_INFO = { name: "patchbay-cli", version: VERSION };
const LABEL = { "streamable-http": "Streamable HTTP", sse: "HTTP+SSE (legacy)" } as const;

/** A Streamable HTTP refusal that means "not this transport": 4xx, but not an auth or size refusal. */
function refusesStreamableHttp(error: unknown): number | undefined {
  if (!(error instanceof McpConnectError) || error.failure.step !== "http") return undefined;
  const status = error.failure.status;
  return status !== undefined && status >= 400 && status < 500 && ![401, 403, 413, 429].includes(status) ? status : undefined;
}

async function attempt(transport: Transport, deps: ConnectDeps, era: McpTarget["era"]): Promise<{ connection: McpConnection; info: ConnectResult }> {
  const connection = new McpConnection({ compiler: deps.compiler });
  const signal = deps.signal;
  if (signal?.aborted) throw new Error("cancelled before connecting");
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new Error("cancelled while connecting"));
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    const info = await Promise.race([connection.connect(transport, { clientInfo: CLIENT_INFO, timeoutMs: deps.timeoutMs, ...(era ? { era } : {}) }), aborted]);
    return { connection, info };
  } catch (error) {
    await connection.close().catch(() => {});
    throw error;
  } finally {
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  }
}

const failureText = (error: unknown): string => (error instanceof McpConnectError ? `${error.failure.message}${error.failure.status !== undefined && !error.failure.message.includes(String(error.failure.status)) ? ` (HTTP ${error.failure.status})` : ""}` : (error as Error).message);

function direct(url: string, transport: "streamable-http" | "sse", headers: Readonly<Record<string, string>>, deps: ConnectDeps): DirectTransport {
  return new DirectTransport({
    fetch: deps.fetch ?? fetch,
    session: { transport, url, headers },
    wireLog: deps.wireLog ?? new WireLog(clock, 1_000),
    clock,
    ids: sequentialIds("frame"),
  });
}

export async function connectMcp(target: McpTarget, deps: ConnectDeps): Promise<ConnectAttempt> {
  if (target.kind === "stdio") {
    const [command, ...args] = target.argv;
    const log = deps.wireLog;
    const recorder = log && new FrameRecorder(log, clock, sequentialIds("frame"), () => `stdio: ${target.line}`);
    const onFrame = recorder && ((direction: "out" | "in", text: string) => void (direction === "out" ? recorder.out(text) : recorder.in(text)));
    const transport = new StdioClientTransport({ transport: "stdio", command, args, env: {} }, onFrame ? { onFrame } : {});
    try {
      const { connection, info } = await attempt(transport, deps, target.era);
      return { ok: true, session: { connection, info, via: `stdio: ${target.line}`, serverStderr: () => transport.stderrLines } };
    } catch (error) {
      return { ok: false, message: `cannot start ${JSON.stringify(target.line)} as an MCP server: ${failureText(error)}`, serverStderr: transport.stderrLines };
    }
  }
  const first = target.transport === "sse" ? "sse" : "streamable-http";
  try {
    const { connection, info } = await attempt(direct(target.url, first, target.headers, deps), deps, target.era);
    return { ok: true, session: { connection, info, via: `${LABEL[first]} at ${target.url}`, serverStderr: () => [] } };
  } catch (error) {
    const status = target.transport === "auto" ? refusesStreamableHttp(error) : undefined;
    if (status === undefined) return { ok: false, message: `cannot connect to ${target.url} over ${LABEL[first]}: ${failureText(error)}`, serverStderr: [] };
    deps.stderr(`call mcp: ${target.url} answered ${status} to Streamable HTTP; trying the legacy HTTP+SSE transport\n`);
  }
  try {
    const { connection, info } = await attempt(direct(target.url, "sse", target.headers, deps), deps, target.era);
    return { ok: true, session: { connection, info, via: `${LABEL.sse} at ${target.url}`, serverStderr: () => [] } };
  } catch (error) {
    return { ok: false, message: `cannot connect to ${target.url} over Streamable HTTP nor over HTTP+SSE: ${failureText(error)}`, serverStderr: [] };
  }
}
