import { describe, expect, it } from "vitest";
import { manualClock, sequentialIds } from "../env/defaults.ts";
import { WireLog } from "../wire/wire-log.ts";
import { McpConnectError } from "./connect-failure.ts";
import { McpConnection } from "./connection.ts";
import type { CreateSessionBody } from "./relay-api.ts";
import { RelayTransport } from "./relay-transport.ts";
import { fakeRelay } from "./test-relay.ts";

const line = (event: object) => `${JSON.stringify(event)}\n`;

const HTTP_SESSION = { transport: "streamable-http", url: "https://mcp.example/mcp" } as const;
const STDIO_SESSION = { transport: "stdio", command: "node", args: ["server.js"] } as const;

function transportOver(relay: ReturnType<typeof fakeRelay>, session: CreateSessionBody = HTTP_SESSION) {
  const clock = manualClock();
  const wireLog = new WireLog(clock, 100);
  const transport = new RelayTransport({
    fetch: relay.fetch,
    baseUrl: "http://127.0.0.1:1",
    token: "t",
    session,
    wireLog,
    clock,
    ids: sequentialIds(),
  });
  return { transport, wireLog };
}

async function failure(relay: ReturnType<typeof fakeRelay>, session?: CreateSessionBody) {
  const { transport } = transportOver(relay, session);
  const error = await new McpConnection().connect(transport, { clientInfo: { name: "t", version: "0" }, timeoutMs: 1000 }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpConnectError);
  return (error as McpConnectError).failure;
}

describe("connecting through the relay", () => {
  it("initializes over the stream and logs both frames under the session's URL", async () => {
    const relay = fakeRelay({
      onMessage: (text, write) => {
        const request = JSON.parse(text) as { id?: number; method: string };
        if (request.method !== "initialize") return;
        const result = { protocolVersion: "2025-03-26", capabilities: {}, serverInfo: { name: "remote", version: "9" } };
        write(line({ type: "http", status: 200, headers: {}, at: 1 }) + line({ type: "message", text: JSON.stringify({ jsonrpc: "2.0", id: request.id, result }), at: 2 }));
      },
    });
    const { transport, wireLog } = transportOver(relay);
    const info = await new McpConnection().connect(transport, { clientInfo: { name: "t", version: "0" }, protocolVersion: "2025-03-26" });
    expect(info).toMatchObject({ requestedVersion: "2025-03-26", negotiatedVersion: "2025-03-26", serverInfo: { name: "remote" } });
    const entries = wireLog.entries();
    expect(entries.map((e) => [e.direction, e.decoded.method ?? null, e.target])).toEqual([
      ["out", "initialize", "https://mcp.example/mcp"],
      ["in", null, "https://mcp.example/mcp"],
      ["out", "notifications/initialized", "https://mcp.example/mcp"],
    ]);
    expect(entries[1]).toMatchObject({ status: 200, correlationId: entries[0]!.correlationId });
  });

  it("ends the attempt at once when the relay reports a DNS failure, naming the step", async () => {
    const relay = fakeRelay({ onMessage: (_t, write) => write(line({ type: "error", step: "dns", message: "getaddrinfo ENOTFOUND mcp.example", at: 1 })) });
    expect(await failure(relay)).toEqual({ step: "dns", message: "dns step failed: getaddrinfo ENOTFOUND mcp.example" });
  });

  it("shows the raw answer of an endpoint that is not MCP", async () => {
    const relay = fakeRelay({
      onMessage: (_t, write) => write(line({ type: "error", step: "not-mcp", message: "text/html is not JSON or SSE", status: 200, body: "<!doctype html>", at: 1 })),
    });
    expect(await failure(relay)).toEqual({ step: "not-mcp", status: 200, raw: "<!doctype html>", message: "not-mcp step failed (HTTP 200): text/html is not JSON or SSE" });
  });

  it("names a server that exits before answering, with the relay's reason", async () => {
    const relay = fakeRelay({ onMessage: (_t, write) => write(line({ type: "closed", reason: "process exited", code: 1, at: 1 })) });
    expect(await failure(relay)).toEqual({ step: "closed", message: "the connection closed before initialize was answered: process exited (code 1)" });
  });

  it("says a process's exit code once", async () => {
    const relay = fakeRelay({ onMessage: (_t, write) => write(line({ type: "closed", reason: "process exited with code 1", code: 1, at: 1 })) });
    expect(await failure(relay, STDIO_SESSION)).toEqual({ step: "closed", message: "the connection closed before initialize was answered: process exited with code 1" });
  });

  it("names a process that writes what is not JSON-RPC to stdout, at connect time", async () => {
    const relay = fakeRelay({
      onMessage: (_t, write) => write(line({ type: "message", text: "Hello from a plain program", at: 1 }) + line({ type: "closed", reason: "process exited with code 0", code: 0, at: 2 })),
    });
    expect(await failure(relay, STDIO_SESSION)).toEqual({
      step: "not-mcp",
      message:
        "the server process wrote a line to stdout that is not JSON-RPC: Hello from a plain program, so it is not an MCP server, or not started as one " +
        "(the connection closed before initialize was answered: process exited with code 0)",
    });
  });

  it("names a process that exited by its exit, not by the write to its stdin that failed as it went", async () => {
    const relay = fakeRelay({
      onMessage: (_t, write) =>
        write(
          line({ type: "error", step: "protocol", message: "writing to the server's stdin failed (EPIPE)", at: 1 }) +
            line({ type: "closed", reason: "process exited with code 1", code: 1, at: 2 }),
        ),
    });
    expect(await failure(relay, STDIO_SESSION)).toEqual({ step: "closed", message: "the connection closed before initialize was answered: process exited with code 1" });
  });

  it("names a relay that refused the session", async () => {
    const relay = fakeRelay({ create: Response.json({ error: { code: "too_many_sessions", message: "at most 16 live sessions" } }, { status: 429 }) });
    expect(await failure(relay)).toMatchObject({ step: "relay", status: 429, message: expect.stringContaining("at most 16 live sessions") });
  });
});
