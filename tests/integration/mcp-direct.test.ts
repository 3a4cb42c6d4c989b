/**
 * The direct transport (the page talking to the server itself, no backend) against real
 * server-everything over Streamable HTTP and legacy SSE, each bound to 127.0.0.1 only.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../server/nats/free-port.ts";
import { manualClock, sequentialIds } from "../../src/core/env/index.ts";
import { DirectTransport, McpConnection, type RelayConsoleEvent } from "../../src/core/mcp/index.ts";
import { WireLog } from "../../src/core/wire/index.ts";
import { EVERYTHING_JS, LOOPBACK_IMPORT } from "../helpers/everything-server.ts";

const EVERYTHING = EVERYTHING_JS;


const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
});

async function startEverything(mode: "streamableHttp" | "sse"): Promise<string> {
  const port = await freePort();
  const child = spawn(process.execPath, [...LOOPBACK_IMPORT, EVERYTHING, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    let said = "";
    child.stderr!.on("data", (d: Buffer) => {
      said += d.toString();
      if (/(running|listening) on port/.test(said)) resolve();
    });
    child.once("exit", (code) => reject(new Error(`server-everything ${mode} exited (${code}): ${said}`)));
  });
  return `http://127.0.0.1:${port}${mode === "sse" ? "/sse" : "/mcp"}`;
}

function direct(url: string, transport: "streamable-http" | "sse") {
  const clock = manualClock();
  const wireLog = new WireLog(clock, 1000);
  const consoleEvents: RelayConsoleEvent[] = [];
  const t = new DirectTransport({
    fetch: (input, init) => fetch(input, init),
    session: { transport, url, headers: { "X-Patchbay-Test": "1" } },
    wireLog,
    clock,
    ids: sequentialIds(),
    onConsole: (e) => consoleEvents.push(e),
  });
  const frames = () => wireLog.entries().map((e) => ({ direction: e.direction, text: new TextDecoder().decode(e.bytes), status: e.status, target: e.target }));
  return { transport: t, frames, consoleEvents };
}

const CLIENT = { clientInfo: { name: "patchbay-test", version: "0" }, protocolVersion: "2025-06-18", timeoutMs: 10_000 };

describe("direct Streamable HTTP to server-everything", () => {
  it("connects, lists and calls tools, sends raw JSON-RPC, and ends the session, every frame logged", async () => {
    const url = await startEverything("streamableHttp");
    const { transport, frames, consoleEvents } = direct(url, "streamable-http");
    const connection = new McpConnection();
    const info = await connection.connect(transport, CLIENT);
    expect(info.negotiatedVersion).toBe("2025-06-18");
    expect(info.serverInfo.name).toMatch(/everything/);

    const tools = await connection.listTools();
    expect(tools.map((t) => t.name)).toContain("echo");
    const outcome = await connection.callTool("echo", { message: "direct hi" });
    expect(outcome).toMatchObject({ kind: "success", result: { content: [{ type: "text", text: "Echo: direct hi" }] } });

    await transport.sendRaw('{"jsonrpc":"2.0","id":"raw-1","method":"no/such-method"}');
    await expect.poll(() => frames().find((f) => f.direction === "in" && f.text.includes('"raw-1"'))?.text).toMatch(/-32601/);

    const first = frames()[0]!;
    expect(first).toMatchObject({ direction: "out", target: url });
    expect(JSON.parse(first.text)).toMatchObject({ method: "initialize", params: { protocolVersion: "2025-06-18" } });
    expect(frames().find((f) => f.direction === "in")?.status).toBe(200);
    expect(frames().some((f) => f.direction === "out" && f.text.includes('"tools/call"'))).toBe(true);

    const answered = consoleEvents.find((e) => e.type === "http" && e.headers["mcp-session-id"] !== undefined);
    const sessionId = answered?.type === "http" ? answered.headers["mcp-session-id"]! : "";
    const ping = () =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" },
        body: '{"jsonrpc":"2.0","id":"after","method":"ping"}',
      });
    expect((await ping()).status).toBe(200);
    await connection.close();
    // close() ended the session on the server (DELETE): the same session id is refused now.
    expect((await ping()).status).toBe(400);
  });

  it("the server answers a browser's CORS preflight for the headers the direct transport sends", async () => {
    const url = await startEverything("streamableHttp");
    const res = await fetch(url, {
      method: "OPTIONS",
      headers: {
        origin: "http://127.0.0.1:7420",
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization,content-type,mcp-protocol-version,mcp-session-id",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
  });

  it("HTTP frames carry their headers and status, credentials withheld; answers name their request's method", async () => {
    const url = await startEverything("streamableHttp");
    const clock = manualClock();
    const wireLog = new WireLog(clock, 1000);
    const transport = new DirectTransport({
      fetch: (input, init) => fetch(input, init),
      session: { transport: "streamable-http", url, headers: { Authorization: "Bearer not-logged" } },
      wireLog,
      clock,
      ids: sequentialIds(),
    });
    const connection = new McpConnection();
    await connection.connect(transport, CLIENT);
    await connection.listTools();
    const entries = wireLog.entries();
    const asked = entries.find((e) => e.direction === "out" && e.decoded.method === "initialize");
    const answer = entries.find((e) => e.direction === "in" && e.decoded.requestMethod === "initialize");
    expect(asked?.headers?.["authorization"]).toEqual(["(withheld: a credential)"]);
    expect(JSON.stringify(entries.map((e) => e.headers))).not.toContain("not-logged");
    expect(answer?.status).toBe(200);
    expect(answer?.headers?.["content-type"]?.[0]).toMatch(/^(application\/json|text\/event-stream)/);
    expect(answer?.headers?.["mcp-session-id"]?.[0]).toMatch(/\S/);
    expect(entries.some((e) => e.direction === "in" && e.decoded.requestMethod === "tools/list")).toBe(true);
    await connection.close();
  });

  it("a server that is not listening is named as unreachable, with the socket error", async () => {
    const port = await freePort();
    const { transport } = direct(`http://127.0.0.1:${port}/mcp`, "streamable-http");
    const error = await new McpConnection().connect(transport, CLIENT).then(() => null, (e: unknown) => e);
    expect(error).toMatchObject({ failure: { step: "tcp", message: `tcp: 127.0.0.1:${port} could not be reached (ECONNREFUSED)` } });
  });
});

describe("direct legacy HTTP+SSE to server-everything", () => {
  it("connects over the event stream, calls a tool and sends raw text to the endpoint it was given", async () => {
    const url = await startEverything("sse");
    const { transport, frames } = direct(url, "sse");
    const connection = new McpConnection();
    const info = await connection.connect(transport, CLIENT);
    expect(info.negotiatedVersion).toBe("2025-06-18");
    const outcome = await connection.callTool("echo", { message: "over sse" });
    expect(outcome).toMatchObject({ kind: "success", result: { content: [{ type: "text", text: "Echo: over sse" }] } });
    await transport.sendRaw('{"jsonrpc":"2.0","id":"raw-2","method":"no/such-method"}');
    await expect.poll(() => frames().find((f) => f.direction === "in" && f.text.includes('"raw-2"'))?.text).toMatch(/-32601/);
    await connection.close();
  });
});
