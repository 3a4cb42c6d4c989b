/**
 * Thousands of malformed requests against the backend's MCP endpoint, in both eras: not JSON,
 * truncated, wrong types, invalid UTF-8, deep nesting, oversize, unknown methods, wrong headers,
 * broken HTTP; and for 2026-07-28 requests (a `_meta` envelope on each), broken envelopes,
 * missing or disagreeing `MCP-Protocol-Version`/`Mcp-Method`/`Mcp-Name`/`Mcp-Param-*` headers,
 * removed methods and bad task calls. Each must get a clear JSON-RPC error (in a 4xx body, or in
 * the 200 answer), the endpoint must stay up, and memory must stay bounded.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send, startTestBackend, type RawResponse, type TestBackend } from "../helpers/http-client.ts";

const MAX_BODY = 4 * 1024 * 1024;
const POST = { "content-type": "application/json", accept: "application/json, text/event-stream" };

let backend: TestBackend;
let port: number;

/** A small seeded generator, so a failure can be replayed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = prng(0x5eed);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));

interface Case {
  readonly kind: string;
  /** A 2026-07-28 request: sent without a session. */
  readonly modern?: true;
  readonly body: string | Buffer;
  readonly headers?: Record<string, string>;
  /** Sent inside an initialized session. */
  readonly inSession?: boolean;
}

const VALID = [
  { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "f", version: "1" } } },
  { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { message: "hello" } } },
  [{ jsonrpc: "2.0", id: 3, method: "ping" }, { jsonrpc: "2.0", id: 4, method: "tools/list" }],
];

function notJson(): Case {
  const alphabet = "abc{}[]:,\"'\\ 0123456789.-+truefalsenul\n\t\u00e9\u4e2d";
  let text = "";
  do text = Array.from({ length: int(1, 200) }, () => pick([...alphabet])).join("");
  while (isJson(text) || text.trim() === "");
  return { kind: "not JSON", body: text };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function truncated(): Case {
  const text = JSON.stringify(pick(VALID));
  return { kind: "truncated", body: text.slice(0, int(1, text.length - 1)) };
}

const WRONG_SHAPES: readonly unknown[] = [
  null,
  42,
  "tools/call",
  true,
  [],
  [1, 2, 3],
  {},
  { jsonrpc: "1.0", id: 1, method: "ping" },
  { jsonrpc: "2.0", id: { nested: true }, method: "ping" },
  { jsonrpc: "2.0", id: 1, method: 7 },
  { jsonrpc: "2.0", id: 1, method: "tools/call", params: [] },
  { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: 5 } },
  { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: "x" } },
  { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: [1] } },
  { jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: 9 } },
  { jsonrpc: "2.0", id: 1, method: "logging/setLevel", params: { level: "loud" } },
  { jsonrpc: "2.0", id: 1, method: "prompts/get", params: {} },
  { jsonrpc: "2.0", id: 1, method: "initialize", params: "nope" },
  { jsonrpc: "2.0", id: 1, result: 5, error: { code: 1 } },
  { id: 1, method: "ping" },
];

function wrongType(inSession: boolean): Case {
  return { kind: "wrong types", body: JSON.stringify(pick(WRONG_SHAPES)), inSession };
}

function invalidUtf8(): Case {
  const bytes = Buffer.from(JSON.stringify(pick(VALID)));
  const at = int(0, bytes.length - 1);
  const bad = pick([[0xff], [0xc3, 0x28], [0xe2, 0x82], [0xf0, 0x28, 0x8c, 0xbc], [0xed, 0xa0, 0x80]]);
  return { kind: "invalid UTF-8", body: Buffer.concat([bytes.subarray(0, at), Buffer.from(bad), bytes.subarray(at)]) };
}

function deep(): Case {
  const depth = pick([600, 2_000, 20_000, 200_000]);
  const body = random() < 0.5 ? `${"[".repeat(depth)}${"]".repeat(depth)}` : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
  return { kind: "deep nesting", body, inSession: random() < 0.5 };
}

function unknownMethod(n: number): Case {
  const method = pick(["frobnicate", "tools/destroy", "rpc.discover", "", "../../etc/passwd", "tasks/launch", `x${n}`]);
  return { kind: "unknown method", body: JSON.stringify({ jsonrpc: "2.0", id: 10_000 + n, method, params: {} }), inSession: true };
}

function badHeaders(n: number): Case {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 20_000 + n, method: "ping" });
  return pick<Case>([
    { kind: "wrong content type", body, headers: { "content-type": "text/plain" }, inSession: true },
    { kind: "wrong accept", body, headers: { accept: "text/html" }, inSession: true },
    { kind: "unknown session", body, headers: { "mcp-session-id": `nope-${n}` } },
    { kind: "bad protocol version", body, headers: { "mcp-protocol-version": "1999-01-01" }, inSession: true },
  ]);
}

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "f", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
const MODERN_HEADERS = (method: string, name?: string): Record<string, string> => ({ "mcp-protocol-version": "2026-07-28", "mcp-method": method, ...(name !== undefined ? { "mcp-name": name } : {}) });
const modernBody = (id: number, method: string, params: Record<string, unknown>) => JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: { ...META, ...(params._meta as object | undefined) } } });

/** A 2026-07-28 request that is wrong in one way: its envelope, its headers, its method or its params. */
function modernCase(n: number): Case {
  const id = 30_000 + n;
  const call = (args: unknown, headers: Record<string, string> = MODERN_HEADERS("tools/call", "test_header_param")) => ({
    body: modernBody(id, "tools/call", { name: "test_header_param", arguments: args }),
    headers,
  });
  const broken: Case[] = [
    { kind: "modern: no MCP-Protocol-Version", body: modernBody(id, "tools/list", {}), headers: { "mcp-method": "tools/list" } },
    { kind: "modern: Mcp-Method disagrees", body: modernBody(id, "tools/list", {}), headers: MODERN_HEADERS("prompts/list") },
    { kind: "modern: Mcp-Method case", body: modernBody(id, "tools/list", {}), headers: MODERN_HEADERS("TOOLS/LIST") },
    { kind: "modern: no Mcp-Name", body: modernBody(id, "tools/call", { name: "echo", arguments: { message: "x" } }), headers: MODERN_HEADERS("tools/call") },
    { kind: "modern: Mcp-Name disagrees", body: modernBody(id, "tools/call", { name: "echo", arguments: { message: "x" } }), headers: MODERN_HEADERS("tools/call", "add") },
    { kind: "modern: header says another version", body: modernBody(id, "tools/list", {}), headers: { ...MODERN_HEADERS("tools/list"), "mcp-protocol-version": "2025-11-25" } },
    { kind: "modern: unknown version", body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list", params: { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "2099-01-01" } } }), headers: { ...MODERN_HEADERS("tools/list"), "mcp-protocol-version": "2099-01-01" } },
    { kind: "modern: no _meta", body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list", params: {} }), headers: MODERN_HEADERS("tools/list") },
    { kind: "modern: _meta not an object", body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list", params: { _meta: pick([5, "x", [1], null]) } }), headers: MODERN_HEADERS("tools/list") },
    { kind: "modern: clientCapabilities broken", body: modernBody(id, "tools/list", { _meta: { "io.modelcontextprotocol/clientCapabilities": pick([7, "all", [true]]) } }), headers: MODERN_HEADERS("tools/list") },
    { kind: "modern: removed method", body: modernBody(id, pick(["initialize", "ping", "logging/setLevel", "resources/subscribe", "tasks/list", "tasks/result"]), {}), headers: MODERN_HEADERS("x") },
    { kind: "modern: unknown method", body: modernBody(id, `frob/${n}`, {}), headers: MODERN_HEADERS(`frob/${n}`) },
    { kind: "modern: wrong param types", body: modernBody(id, "tools/call", { name: 5, arguments: "x" }), headers: MODERN_HEADERS("tools/call") },
    { kind: "modern: Mcp-Param missing", ...call({ region: "north" }) },
    { kind: "modern: Mcp-Param disagrees", ...call({ region: "north" }, { ...MODERN_HEADERS("tools/call", "test_header_param"), "mcp-param-region": "south" }) },
    { kind: "modern: Mcp-Param bad Base64", ...call({ region: "north" }, { ...MODERN_HEADERS("tools/call", "test_header_param"), "mcp-param-region": pick(["=?base64?bm9ydGg?=", "=?base64?!!!!?=", "=?base64?/w==?="]) }) },
    { kind: "modern: tasks without the extension", body: modernBody(id, "tasks/get", { taskId: `t${n}` }), headers: MODERN_HEADERS("tasks/get", `t${n}`) },
    {
      kind: "modern: unknown task",
      body: modernBody(id, "tasks/cancel", { taskId: `t${n}`, _meta: { "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } } } }),
      headers: MODERN_HEADERS("tasks/cancel", `t${n}`),
    },
    { kind: "modern: tampered requestState", body: modernBody(id, "tools/call", { name: "test_input_required_result_tampered_state", arguments: {}, requestState: `v1.${"A".repeat(int(0, 40))}.x` }), headers: MODERN_HEADERS("tools/call", "test_input_required_result_tampered_state") },
  ];
  return { ...pick(broken), modern: true };
}

function cases(): Case[] {
  const out: Case[] = [];
  for (let i = 0; i < 600; i++) out.push(notJson());
  for (let i = 0; i < 600; i++) out.push(truncated());
  for (let i = 0; i < 600; i++) out.push(wrongType(i % 2 === 0));
  for (let i = 0; i < 300; i++) out.push(invalidUtf8());
  for (let i = 0; i < 100; i++) out.push(deep());
  for (let i = 0; i < 600; i++) out.push(unknownMethod(i));
  for (let i = 0; i < 200; i++) out.push(badHeaders(i));
  for (let i = 0; i < 10; i++) out.push({ kind: "oversize", body: Buffer.alloc(MAX_BODY + 1 + i, 0x20) });
  for (let i = 0; i < 1_000; i++) out.push(modernCase(i));
  for (let i = 0; i < 5; i++) {
    const padding = "x".repeat(MAX_BODY);
    out.push({ kind: "modern: oversize", body: modernBody(40_000 + i, "tools/call", { name: "echo", arguments: { message: padding } }), headers: MODERN_HEADERS("tools/call", "echo"), modern: true });
  }
  return out;
}

async function openSession(): Promise<Record<string, string>> {
  const init = await send({ port, method: "POST", path: "/mcp", headers: POST, body: JSON.stringify(VALID[0]) });
  const id = String(init.headers["mcp-session-id"]);
  const headers = { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" };
  await send({ port, method: "POST", path: "/mcp", headers: { ...POST, ...headers }, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
  return headers;
}

interface RpcError {
  readonly code: number;
  readonly message: string;
}

/** The JSON-RPC error a response carries, in a JSON body or as an SSE data line, if any. */
function rpcErrorOf(res: RawResponse): RpcError | undefined {
  const texts = String(res.headers["content-type"]).includes("text/event-stream")
    ? res.text.split("\n").filter((line) => line.startsWith("data: ")).map((line) => line.slice(6))
    : [res.text];
  for (const text of texts) {
    try {
      const message = JSON.parse(text) as { jsonrpc?: string; error?: RpcError } | { jsonrpc?: string; error?: RpcError }[];
      for (const m of Array.isArray(message) ? message : [message]) {
        if (m.jsonrpc === "2.0" && typeof m.error?.code === "number" && typeof m.error.message === "string" && m.error.message !== "") return m.error;
      }
    } catch {
      // Not this line.
    }
  }
  return undefined;
}

/** A tool error (isError result) is the right answer to wrong tool arguments. */
function isToolError(res: RawResponse): boolean {
  return res.text.split("\n").some((line) => line.startsWith("data: ") && line.includes('"isError":true'));
}

function rawHttp(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.end(text));
    let got = "";
    socket.on("data", (chunk: Buffer) => (got += chunk.toString("latin1")));
    socket.on("close", () => resolve(got));
    socket.on("error", reject);
    socket.setTimeout(5_000, () => socket.destroy());
  });
}

beforeAll(async () => {
  backend = await startTestBackend();
  const res = await send({
    port: backend.port,
    method: "POST",
    path: "/api/serve/mcp/start",
    headers: { ...backend.auth, "content-type": "application/json" },
    body: JSON.stringify({ port: 0 }),
  });
  port = res.json<{ port: number }>().port;
});
afterAll(() => backend.close());

describe("fuzzing the MCP endpoint", () => {
  it("answers every malformed request with a clear error, stays up, and keeps memory bounded", async () => {
    const session = await openSession();
    const all = cases();
    const rssBefore = process.memoryUsage().rss;
    const failures: string[] = [];
    const tally = new Map<string, number>();
    let next = 0;
    const worker = async () => {
      while (next < all.length) {
        const c = all[next++]!;
        const res = await send({ port, method: "POST", path: "/mcp", headers: { ...POST, ...(c.inSession && !c.modern ? session : {}), ...c.headers }, body: c.body });
        const error = rpcErrorOf(res);
        const clear = res.status >= 400 && res.status < 500 ? error !== undefined : res.status === 200 && (error !== undefined || isToolError(res));
        tally.set(c.kind, (tally.get(c.kind) ?? 0) + 1);
        if (!clear && failures.length < 10) failures.push(`${c.kind}: ${res.status} ${res.text.slice(0, 200)} for ${String(c.body).slice(0, 80)}`);
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    expect(failures).toEqual([]);
    expect([...tally.values()].reduce((a, b) => a + b, 0)).toBe(all.length);
    expect(all.length).toBeGreaterThanOrEqual(4_000);
    expect([...tally.keys()].filter((k) => k.startsWith("modern:")).length).toBeGreaterThanOrEqual(19);

    for (const garbage of ["GARBAGE\r\n\r\n", "POST /mcp HTTP/9.9\r\n\r\n", "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -5\r\n\r\n", "\u0000\u0001\u0002\r\n\r\n"]) {
      expect(await rawHttp(garbage)).toMatch(/^HTTP\/1\.1 400/);
    }

    const growth = process.memoryUsage().rss - rssBefore;
    expect(growth, `rss grew by ${Math.round(growth / 1024 / 1024)} MiB`).toBeLessThan(256 * 1024 * 1024);

    const status = await send({ port: backend.port, path: "/api/serve/mcp/status", headers: backend.auth });
    expect(status.json<{ sessions: number }>().sessions).toBeLessThanOrEqual(32);
    const client = new Client({ name: "after-fuzz", version: "0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
    const result = await client.callTool({ name: "echo", arguments: { message: "still up" } });
    expect((result.content as { text: string }[])[0]!.text).toBe("still up");
    await client.close();
    const modern = await send({ port, method: "POST", path: "/mcp", headers: { ...POST, ...MODERN_HEADERS("tools/call", "echo") }, body: modernBody(1, "tools/call", { name: "echo", arguments: { message: "modern still up" } }) });
    expect(modern.status).toBe(200);
    expect(modern.json<{ result: { content: { text: string }[] } }>().result.content[0]!.text).toBe("modern still up");
  }, 240_000);
});
