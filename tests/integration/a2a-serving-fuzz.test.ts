/**
 * Malformed requests against the served A2A agent, seeded so a failure can be replayed: JSON-RPC
 * bodies that are not JSON, truncated, invalid UTF-8, too deep, the wrong shape, unknown methods,
 * the wrong content type, too large; HTTP+JSON bodies and routes in both versions; broken HTTP.
 * Each gets the error its class calls for, and the agent stays up and keeps serving.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/core/env/index.ts";
import { DEMO_TOOLKIT } from "../../src/core/serving/demo-toolkit.ts";
import { startA2aServing, type A2aServing } from "../../server/serving/a2a-engine.ts";
import { send, type RawResponse } from "../helpers/http-client.ts";

const MAX_BODY = 64 * 1024;
let agent: A2aServing;

beforeAll(async () => {
  agent = await startA2aServing({ toolkit: DEMO_TOOLKIT, port: 0, logger: silentLogger, maxBodyBytes: MAX_BODY });
});
afterAll(() => agent.close());

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = prng(0xa2a);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));

interface RpcCase {
  readonly kind: string;
  readonly body: string | Buffer;
  /** The JSON-RPC error code the answer must carry. */
  readonly code: number;
  readonly status?: number;
  readonly headers?: Record<string, string>;
}

const VALID = [
  { jsonrpc: "2.0", id: 1, method: "message/send", params: { message: { kind: "message", messageId: "m1", role: "user", parts: [{ kind: "text", text: "hi" }] } } },
  { jsonrpc: "2.0", id: 2, method: "tasks/get", params: { id: "t" } },
];

const isJson = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

function notJson(): RpcCase {
  const alphabet = "abc{}[]:,\"'\\ 0123456789.-+truefalsenul\n\t\u00e9\u4e2d";
  let text = "";
  do text = Array.from({ length: int(1, 200) }, () => pick([...alphabet])).join("");
  while (isJson(text));
  return { kind: "not JSON", body: text, code: -32700 };
}

function truncated(): RpcCase {
  const text = JSON.stringify(pick(VALID));
  return { kind: "truncated", body: text.slice(0, int(1, text.length - 1)), code: -32700 };
}

function invalidUtf8(): RpcCase {
  const bytes = Buffer.from(JSON.stringify(pick(VALID)));
  const at = int(0, bytes.length - 1);
  const bad = pick([[0xff], [0xc3, 0x28], [0xe2, 0x82], [0xf0, 0x28, 0x8c, 0xbc], [0xed, 0xa0, 0x80]]);
  return { kind: "invalid UTF-8", body: Buffer.concat([bytes.subarray(0, at), Buffer.from(bad), bytes.subarray(at)]), code: -32700 };
}

/** The parser's nesting limit (src/core/json): deeper is no JSON it reads; within it a whole value is just not a request. */
const MAX_DEPTH = 1000;

function deep(): RpcCase {
  const depth = pick([600, 900, 2_000, 10_000]);
  const whole = random() < 0.5 ? `${"[".repeat(depth)}${"]".repeat(depth)}` : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
  const cut = random() < 0.5;
  const code = cut || depth > MAX_DEPTH ? -32700 : -32600;
  return { kind: cut ? "deep and cut short" : "deep nesting", body: cut ? whole.slice(0, whole.length - 1) : whole, code };
}

const SHAPES: readonly [unknown, number][] = [
  [null, -32600],
  [42, -32600],
  ["message/send", -32600],
  [true, -32600],
  [[], -32600],
  [[VALID[0]], -32600],
  [{}, -32600],
  [{ jsonrpc: "1.0", id: 1, method: "tasks/get", params: { id: "t" } }, -32600],
  [{ jsonrpc: "2.0", id: { nested: true }, method: "tasks/get", params: { id: "t" } }, -32600],
  [{ jsonrpc: "2.0", id: 1, method: 7 }, -32600],
  [{ id: 1, method: "tasks/get" }, -32600],
  [{ jsonrpc: "2.0", id: 1, method: "tasks/get", params: [] }, -32602],
  [{ jsonrpc: "2.0", id: 1, method: "tasks/get", params: "t" }, -32602],
  [{ jsonrpc: "2.0", id: 1, method: "tasks/get", params: {} }, -32602],
  [{ jsonrpc: "2.0", id: 1, method: "tasks/get", params: { id: "t", historyLength: -3 } }, -32602],
  [{ jsonrpc: "2.0", id: 1, method: "tasks/cancel", params: { id: "no-such-task" } }, -32001],
  [{ jsonrpc: "2.0", id: 1, method: "tasks/resubscribe", params: {} }, -32602],
  [{ jsonrpc: "2.0", id: 1, method: "message/send", params: { message: { kind: "message" } } }, -32602],
  [{ jsonrpc: "2.0", id: 1, method: "message/send", params: { message: { kind: "message", messageId: "m", role: "user", parts: [] } } }, -32602],
  [{ jsonrpc: "2.0", id: 1, method: "message/send", params: { message: { kind: "message", messageId: "m", role: "user", parts: [{ kind: "text", text: "x" }], taskId: "no-such-task" } } }, -32001],
];

function wrongShape(): RpcCase {
  const [body, code] = pick(SHAPES);
  return { kind: "wrong shape", body: JSON.stringify(body), code };
}

function unknownMethod(n: number): RpcCase {
  const method = pick(["frobnicate", "tasks/list", "tasks/send", "", "../../etc/passwd", `x${n}`, "SendMessage"]);
  return { kind: "unknown method", body: JSON.stringify({ jsonrpc: "2.0", id: n, method, params: {} }), code: -32601 };
}

function wrongVersion(n: number): RpcCase {
  const body = JSON.stringify({ jsonrpc: "2.0", id: n, method: "GetTask", params: { id: "t" } });
  return pick<RpcCase>([
    { kind: "unserved version", body, code: -32009, headers: { "a2a-version": pick(["2.0", "0.2", "1.1", "x"]) } },
    { kind: "v0.3 method in v1.0", body: JSON.stringify({ jsonrpc: "2.0", id: n, method: "tasks/get", params: { id: "t" } }), code: -32601, headers: { "a2a-version": "1.0" } },
    { kind: "wrong content type", body, code: -32005, headers: { "content-type": pick(["text/plain", "application/xml", "multipart/form-data"]) } },
  ]);
}

function rpcCases(): RpcCase[] {
  const out: RpcCase[] = [];
  for (let i = 0; i < 250; i++) out.push(notJson());
  for (let i = 0; i < 250; i++) out.push(truncated());
  for (let i = 0; i < 120; i++) out.push(invalidUtf8());
  for (let i = 0; i < 30; i++) out.push(deep());
  for (let i = 0; i < 250; i++) out.push(wrongShape());
  for (let i = 0; i < 150; i++) out.push(unknownMethod(i));
  for (let i = 0; i < 150; i++) out.push(wrongVersion(i));
  for (let i = 0; i < 5; i++) out.push({ kind: "oversize", body: Buffer.alloc(MAX_BODY + 1 + i, 0x20), code: -32600, status: 413 });
  out.push({ kind: "empty body", body: "", code: -32700 });
  return out;
}

async function inBatches<T, R>(items: readonly T[], size: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(run))));
  return out;
}

async function stillServing(): Promise<void> {
  const res = await fetch(agent.jsonRpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(VALID[0]) });
  expect(((await res.json()) as { result: { status: { state: string } } }).result.status.state).toBe("completed");
}

function rawHttp(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(agent.port, "127.0.0.1", () => socket.end(text));
    let got = "";
    socket.on("data", (chunk: Buffer) => (got += chunk.toString("latin1")));
    socket.on("close", () => resolve(got));
    socket.on("error", reject);
    socket.setTimeout(5_000, () => socket.destroy());
  });
}

describe("fuzzing the JSON-RPC endpoint", () => {
  it("answers every malformed request with the JSON-RPC error its class calls for, and stays up", async () => {
    const all = rpcCases();
    const wrong: string[] = [];
    await inBatches(all, 16, async (c) => {
      const res: RawResponse = await send({ port: agent.port, method: "POST", path: "/a2a/jsonrpc", headers: { "content-type": "application/json", ...c.headers }, body: c.body });
      // v0.3's tasks/resubscribe answers as a stream even when it fails at once, the error its one event.
      const text = String(res.headers["content-type"]).startsWith("text/event-stream") ? (/^data: (.*)$/m.exec(res.text)?.[1] ?? "") : res.text;
      let error: { code?: unknown; message?: unknown } | undefined;
      try {
        error = (JSON.parse(text) as { jsonrpc: string; error?: { code?: unknown; message?: unknown } }).error;
      } catch {
        error = undefined;
      }
      const ok = res.status === (c.status ?? 200) && error?.code === c.code && typeof error.message === "string" && error.message !== "";
      if (!ok) wrong.push(`${c.kind}: ${String(c.body).slice(0, 80)} → ${res.status} ${res.text.slice(0, 160)}`);
    });
    expect(wrong).toEqual([]);
    expect(all.length).toBeGreaterThan(1000);
    await stillServing();
  }, 120_000);
});

describe("fuzzing the HTTP+JSON binding", () => {
  const V1 = { "content-type": "application/json", "a2a-version": "1.0" };
  const cases: readonly { kind: string; method: string; path: string; body?: string | Buffer; headers?: Record<string, string>; status: number; legacy?: boolean }[] = [
    ...Array.from({ length: 60 }, () => ({ kind: "not JSON (v1.0)", method: "POST", path: "/a2a/rest/message:send", body: notJson().body, headers: V1, status: 400 })),
    ...Array.from({ length: 60 }, () => ({ kind: "not JSON (v0.3)", method: "POST", path: "/a2a/rest/v1/message:send", body: truncated().body, headers: { "content-type": "application/json" }, status: 400, legacy: true })),
    { kind: "no message", method: "POST", path: "/a2a/rest/message:send", body: "{}", headers: V1, status: 400 },
    { kind: "no messageId", method: "POST", path: "/a2a/rest/message:send", body: '{"message":{"role":"ROLE_USER","parts":[{"text":"x"}]}}', headers: V1, status: 400 },
    { kind: "no parts", method: "POST", path: "/a2a/rest/message:send", body: '{"message":{"messageId":"m","role":"ROLE_USER","parts":[]}}', headers: V1, status: 400 },
    { kind: "an array", method: "POST", path: "/a2a/rest/message:send", body: "[1,2]", headers: V1, status: 400 },
    { kind: "wrong content type", method: "POST", path: "/a2a/rest/message:send", body: "{}", headers: { "content-type": "text/plain", "a2a-version": "1.0" }, status: 400 },
    { kind: "no v0.3 message", method: "POST", path: "/a2a/rest/v1/message:send", body: "{}", headers: { "content-type": "application/json" }, status: 400, legacy: true },
    { kind: "unknown task", method: "GET", path: "/a2a/rest/tasks/no-such-task", headers: { "a2a-version": "1.0" }, status: 404 },
    { kind: "unknown task (v0.3)", method: "GET", path: "/a2a/rest/v1/tasks/no-such-task", status: 404, legacy: true },
    { kind: "cancel unknown", method: "POST", path: "/a2a/rest/tasks/no-such-task:cancel", headers: { "a2a-version": "1.0" }, status: 404 },
    { kind: "bad historyLength", method: "GET", path: "/a2a/rest/tasks/x?historyLength=abc", headers: { "a2a-version": "1.0" }, status: 400 },
    { kind: "no route", method: "GET", path: "/a2a/rest/frobnicate", status: 404 },
    { kind: "no route (v0.3)", method: "PUT", path: "/a2a/rest/v1/tasks/x", status: 404, legacy: true },
    { kind: "unserved version", method: "GET", path: "/a2a/rest/tasks/x", headers: { "a2a-version": "3.0" }, status: 400 },
    { kind: "oversize", method: "POST", path: "/a2a/rest/message:send", body: Buffer.alloc(MAX_BODY + 10, 0x20), headers: V1, status: 413 },
  ];

  it("answers each with a JSON error in its version's shape, and stays up", async () => {
    const wrong: string[] = [];
    await inBatches(cases, 16, async (c) => {
      const res = await send({ port: agent.port, method: c.method, path: c.path, ...(c.headers ? { headers: c.headers } : {}), ...(c.body !== undefined ? { body: c.body } : {}) });
      let body: { error?: { code?: unknown; message?: unknown }; code?: unknown; message?: unknown } = {};
      try {
        body = res.json();
      } catch {
        body = {};
      }
      const error = c.legacy ? body : body.error;
      const shaped = c.legacy ? typeof error?.code === "number" && (error.code as number) < 0 : error?.code === c.status;
      if (res.status !== c.status || !shaped || typeof error?.message !== "string" || error.message === "") wrong.push(`${c.kind} → ${res.status} ${res.text.slice(0, 160)}`);
    });
    expect(wrong).toEqual([]);
    await stillServing();
  });
});

describe("broken HTTP", () => {
  it("answers a malformed request line with 400 and keeps listening", async () => {
    const got = await rawHttp("GARBAGE\r\n\r\n");
    expect(got).toMatch(/^HTTP\/1\.1 400/);
    const noHost = await send({ port: agent.port, path: "/.well-known/agent-card.json", host: null });
    expect(noHost.status).toBe(403);
    await stillServing();
  });
});
