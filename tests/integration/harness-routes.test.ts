/**
 * The page's collection runner through the real backend: /api/harness runs a collection with
 * the Node executors (here against Patchbay's served fisk-ai agent and its served MCP endpoint),
 * reports progress to polling GETs, stops on request, refuses what it cannot run, and a saved
 * collection is checked and written in its canonical order.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { RunReport } from "../../src/core/harness/index.ts";
import { startHarnessPeers, type HarnessPeers } from "../helpers/harness-peers.ts";
import { errorOf, send, startTestBackend, type TestBackend } from "../helpers/http-client.ts";

let backend: TestBackend;
let peers: HarnessPeers;

beforeAll(async () => {
  [backend, peers] = await Promise.all([startTestBackend(), startHarnessPeers(inject("natsUrl"))]);
}, 30_000);
afterAll(async () => {
  await backend?.close();
  await peers?.close();
});

const api = (method: string, path: string, body?: unknown) =>
  send({ port: backend.port, method, path, headers: { ...backend.auth, "content-type": "application/json" }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });

function collection(steps: unknown[]) {
  return {
    name: "page run",
    targets: { bus: { protocol: "nats", server: "{{natsUrl}}" }, served: { protocol: "mcp", url: "{{mcpUrl}}", headers: { Authorization: "Bearer {{token}}" } } },
    environments: { local: { natsUrl: peers.natsUrl, mcpUrl: peers.mcpUrl } },
    secrets: { token: { env: "MCP_TOKEN" } },
    steps,
  };
}

const sleep = (ms: number, name = `sleep ${ms}`) => ({ name, target: "bus", action: { protocol: "nats", kind: "tool", identity: peers.identity, tool: "sleep", input: { seconds: ms / 1000 } }, assert: [{ kind: "outcome", is: "result" }] });
const echo = (name: string) => ({ name, target: "served", action: { protocol: "mcp", method: "tools/call", params: { name: "echo", arguments: { message: "{{token}}" } } }, assert: [{ kind: "matches", pointer: "/result/content/0/text", pattern: "tok" }] });

async function until(id: string, done: (body: { state: string; finished: number; report: RunReport | null }) => boolean) {
  for (let i = 0; i < 400; i++) {
    const res = await api("GET", `/api/harness/runs/${id}`);
    const body = res.json<{ state: string; finished: number; report: RunReport | null }>();
    if (done(body)) return body;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`the run never got there: ${(await api("GET", `/api/harness/runs/${id}`)).text.slice(0, 2000)}`);
}

describe("/api/harness runs", () => {
  it("runs a collection with a typed-in secret, reports each step, and never echoes the secret", async () => {
    const start = await api("POST", "/api/harness/runs", { collection: collection([echo("first"), echo("second")]), environment: "local", secrets: { token: "tok-page-5150" } });
    expect(start.status, start.text).toBe(200);
    const { id } = start.json<{ id: string }>();
    const done = await until(id, (b) => b.state === "done");
    expect(done.report?.totals).toEqual({ steps: 2, passed: 2, failed: 0, errors: 0, skipped: 0 });
    const page = await api("GET", `/api/harness/runs/${id}?after=1`);
    expect(page.json<{ steps: { name: string }[] }>().steps.map((s) => s.name)).toEqual(["second"]);
    expect(page.text).not.toContain("tok-page-5150");
    expect(backend.logs.join("\n")).not.toContain("tok-page-5150");
  });

  it("stops a running collection: the step running ends, the rest are skipped; a second start while one runs is 409", async () => {
    const start = await api("POST", "/api/harness/runs", { collection: collection([sleep(5000), sleep(10), sleep(10, "sleep again")]), environment: "local" });
    expect(start.status, start.text).toBe(200);
    const { id } = start.json<{ id: string }>();
    await until(id, (b) => b.state === "running");
    const again = await api("POST", "/api/harness/runs", { collection: collection([sleep(10)]) });
    expect([again.status, errorOf(again).code]).toEqual([409, "run_active"]);
    expect((await api("POST", `/api/harness/runs/${id}/stop`, {})).json()).toEqual({ stopped: true });
    const done = await until(id, (b) => b.state === "done");
    expect(done.report?.stopped).toBe(true);
    expect(done.report?.steps.map((s) => s.status).slice(1)).toEqual(["skipped", "skipped"]);
  });

  it("re-runs one step with the captures given", async () => {
    const steps = [echo("a"), { ...echo("b"), action: { protocol: "mcp", method: "tools/call", params: { name: "echo", arguments: { message: "tok {{prior}}" } } }, assert: [{ kind: "equals", pointer: "/result/content/0/text", value: "tok 42" }] }];
    const start = await api("POST", "/api/harness/runs", { collection: collection(steps), environment: "local", secrets: { token: "tok-x" }, only: [1], captured: { prior: "42" } });
    const done = await until(start.json<{ id: string }>().id, (b) => b.state === "done");
    expect(done.report?.steps.map((s) => [s.name, s.status]), JSON.stringify(done.report?.steps[0]?.assertions)).toEqual([["b", "passed"]]);
  });

  it.each([
    [{}, 400, "invalid_collection"],
    ["not an object", 400, "invalid_body"],
    [{ collection: { name: "x", targets: {}, environments: {}, steps: [{ name: "s", target: "t", action: { protocol: "mcp", method: "m" } }] } }, 400, "invalid_collection"],
    [{ collection: { name: "x", targets: {}, environments: {}, steps: [] }, environment: "constructor" }, 400, "unknown_environment"],
    [{ collection: { name: "x", targets: {}, environments: {}, steps: [] }, secrets: { a: 1 } }, 400, "invalid_body"],
    [{ collection: { name: "x", targets: {}, environments: {}, steps: [] }, only: [0] }, 400, "invalid_body"],
  ])("refuses %j with %i %s", async (body, status, code) => {
    const res = await api("POST", "/api/harness/runs", body);
    expect([res.status, errorOf(res).code]).toEqual([status, code]);
  });

  it("an unknown run is 404; the routes need the token", async () => {
    expect((await api("GET", "/api/harness/runs/nope")).status).toBe(404);
    const bare = await send({ port: backend.port, method: "POST", path: "/api/harness/runs", headers: { "content-type": "application/json" }, body: "{}" });
    expect(bare.status).toBe(401);
  });
});

describe("saving a collection to the workspace", () => {
  it("writes it in canonical key order, and refuses a literal secret or a broken one naming the place", async () => {
    const shuffled = { steps: [], environments: { z: { b: "2", a: "1" } }, targets: { t: { url: "http://x/mcp", protocol: "mcp" } }, name: "order" };
    expect((await api("PUT", "/api/workspace/collections/order", { data: shuffled })).status).toBe(200);
    const text = await readFile(join(backend.workspace, "collections", "order.json"), "utf8");
    const data = JSON.stringify(JSON.parse(text).data);
    expect(data).toBe('{"name":"order","targets":{"t":{"protocol":"mcp","url":"http://x/mcp"}},"environments":{"z":{"a":"1","b":"2"}},"steps":[]}');
    const literal = { ...shuffled, targets: { t: { protocol: "mcp", url: "http://x/mcp", headers: { Authorization: "Bearer abc123" } } } };
    const refused = await api("PUT", "/api/workspace/collections/order", { data: literal });
    expect([refused.status, errorOf(refused).code]).toEqual([400, "invalid_collection"]);
    expect(errorOf(refused).message).toContain("/targets/t/headers/Authorization");
    expect(await readFile(join(backend.workspace, "collections", "order.json"), "utf8")).toBe(text);
  });
});
