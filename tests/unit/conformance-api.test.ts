/**
 * The page's client for /api/conformance: requests it sends, and answers it checks. The results
 * in the answers are the parsers' readings of recorded runs, as the backend sends them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BackendClient, BackendError } from "../../src/core/backend/backend-client.ts";
import { ConformanceApi } from "../../src/core/backend/conformance-api.ts";
import { parseConformanceChecks, parseMcpConformanceOutput, parseTckJunit, withChecks } from "../../src/core/harness/conformance-output.ts";
import type { ConformanceRunView } from "../../src/core/harness/conformance-run-types.ts";

const fixture = (name: string) => readFileSync(join(import.meta.dirname, "../fixtures/conformance", name), "utf8");

function fakeBackend(answers: Record<string, { status?: number; body: unknown }>) {
  const seen: { method: string; path: string; body: unknown }[] = [];
  const fetch = (async (url: string, init?: RequestInit) => {
    const method = init?.method ?? "GET";
    const path = new URL(url, "http://x").pathname;
    seen.push({ method, path, body: init?.body === undefined ? undefined : JSON.parse(String(init.body)) });
    const answer = answers[`${method} ${path}`];
    if (!answer) return new Response(JSON.stringify({ error: { code: "not_found", message: `no route ${method} ${path}` } }), { status: 404 });
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200 });
  }) as unknown as typeof globalThis.fetch;
  return { api: new ConformanceApi(new BackendClient({ fetch, token: "t" })), seen };
}

const base: ConformanceRunView = {
  id: "run-1",
  kind: "mcp",
  url: "http://127.0.0.1:7421/mcp",
  target: "http://127.0.0.1:7421/mcp",
  scope: null,
  requirements: "2026-07-28",
  state: "running",
  startedAt: "2026-12-02T17:29:11.000Z",
  finishedAt: null,
  exitCode: null,
  output: "Running active suite (30 scenarios) against http://127.0.0.1:7421/mcp\n",
  outputDropped: 0,
  progress: { started: 0, planned: 30 },
  problem: null,
  mcp: null,
  a2a: null,
  passed: null,
};

const mcpDone: ConformanceRunView = {
  ...base,
  state: "done",
  finishedAt: "2026-12-02T17:29:13.000Z",
  exitCode: 1,
  mcp: withChecks(parseMcpConformanceOutput(fixture("mcp-server-everything.out")), new Map([["dns-rebinding-protection", parseConformanceChecks(fixture("everything-dns-rebinding-protection.checks.json"))]])),
  passed: false,
};

const a2aDone: ConformanceRunView = {
  ...base,
  kind: "a2a",
  url: "http://127.0.0.1:7422/.well-known/agent-card.json",
  target: "http://127.0.0.1:7422/",
  scope: "mandatory",
  requirements: null,
  state: "done",
  progress: null,
  a2a: { scope: "mandatory", endpoint: "http://127.0.0.1:7422/a2a/jsonrpc", result: parseTckJunit(fixture("tck-mandatory-plain.xml")) },
  passed: false,
};

describe("ConformanceApi", () => {
  it("starts each kind with its body and reads the run back, results and all", async () => {
    const { api, seen } = fakeBackend({
      "POST /api/conformance/mcp": { body: base },
      "POST /api/conformance/a2a": { body: a2aDone },
      "GET /api/conformance/runs/run-1": { body: mcpDone },
      "POST /api/conformance/runs/run-1/stop": { body: { ...base, state: "stopped" } },
      "GET /api/conformance/runs": { body: { runs: [{ id: "run-1", kind: "mcp", url: base.url, state: "done", passed: false }] } },
    });
    expect(await api.startMcp("http://127.0.0.1:7421/mcp")).toEqual(base);
    await api.startMcp("http://127.0.0.1:7421/mcp", "2025-11-25");
    expect(await api.startA2a("http://127.0.0.1:7422/.well-known/agent-card.json")).toEqual(a2aDone);
    await api.startA2a("http://127.0.0.1:7422/", "all");
    expect(await api.run("run-1")).toEqual(mcpDone);
    expect((await api.stop("run-1")).state).toBe("stopped");
    expect(await api.runs()).toEqual([{ id: "run-1", kind: "mcp", url: base.url, state: "done", passed: false }]);
    expect(seen.map((s) => [s.method, s.path, s.body])).toEqual([
      ["POST", "/api/conformance/mcp", { url: "http://127.0.0.1:7421/mcp" }],
      ["POST", "/api/conformance/mcp", { url: "http://127.0.0.1:7421/mcp", requirements: "2025-11-25" }],
      ["POST", "/api/conformance/a2a", { url: "http://127.0.0.1:7422/.well-known/agent-card.json" }],
      ["POST", "/api/conformance/a2a", { url: "http://127.0.0.1:7422/", scope: "all" }],
      ["GET", "/api/conformance/runs/run-1", undefined],
      ["POST", "/api/conformance/runs/run-1/stop", {}],
      ["GET", "/api/conformance/runs", undefined],
    ]);
  });

  it("passes the backend's refusal on with its code and message", async () => {
    const { api } = fakeBackend({ "POST /api/conformance/a2a": { status: 503, body: { error: { code: "tck_missing", message: "the A2A TCK is not here" } } } });
    const err = await api.startA2a("http://x/").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackendError);
    expect(err).toMatchObject({ status: 503, code: "tck_missing", message: "the A2A TCK is not here" });
  });

  it("names the place of a malformed answer", async () => {
    const bad = async (body: unknown) => {
      const { api } = fakeBackend({ "GET /api/conformance/runs/x": { body } });
      return ((await api.run("x").catch((e: unknown) => e)) as Error).message;
    };
    expect(await bad({ ...base, state: "exploded" })).toMatch(/"state" should be one of running, done, stopped, failed/);
    expect(await bad({ ...base, url: "javascript:alert(1)" })).toMatch(/"url" should be an http\(s\) URL/);
    expect(await bad({ ...mcpDone, mcp: { ...mcpDone.mcp, scenarios: [{ name: "x", ok: "yes", passed: 1, failed: 0 }] } })).toMatch(/"mcp\.scenarios\[0\]\.ok" should be true or false/);
    expect(await bad({ ...a2aDone, a2a: { ...a2aDone.a2a, result: { ...a2aDone.a2a?.result, cases: [{ id: "a", classname: "b", name: "c", outcome: "maybe" }] } } })).toMatch(/"a2a\.result\.cases\[0\]\.outcome" should be one of passed/);
    expect(await bad({ ...base, exitCode: 1.5 })).toMatch(/"exitCode" should be a whole number or null/);
    expect(await bad({ ...base, requirements: "2099-01-01" })).toMatch(/"requirements" should be one of 2026-07-28, 2025-11-25/);
    const { progress: _dropped, ...noProgress } = base;
    expect(await bad(noProgress)).toMatch(/"progress" should be an object/);
    expect(await bad("not an object")).toMatch(/the body should be an object/);
  });
});
