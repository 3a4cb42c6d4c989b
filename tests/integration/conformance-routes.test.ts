/**
 * The /api/conformance routes through the real backend: the official MCP conformance suite
 * against the backend's own served MCP endpoint (every scenario of the 2026-07-28 requirement set,
 * the default, passes; counts and checks read back), and the A2A TCK's mandatory set against Patchbay's served agent in TCK mode. Where the
 * TCK or its Python is missing, the route's prerequisite answer is what is asserted, loudly.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/core/env/defaults.ts";
import type { ConformanceRunView } from "../../src/core/harness/conformance-run-types.ts";
import { DEMO_TOOLKIT } from "../../src/core/serving/demo-toolkit.ts";
import { startA2aServing, type A2aServing } from "../../server/serving/a2a-engine.ts";
import { errorOf, send, startTestBackend, type RawResponse, type TestBackend } from "../helpers/http-client.ts";

/** The scenarios of the default requirement set, 2026-07-28, in the suite 0.2.0-alpha.12. */
const SUITE_SCENARIOS = 50;
const TCK_HOME = resolve(process.env.PATCHBAY_A2A_TCK ?? join(process.cwd(), "..", "shared", "tools", "a2a-tck"));
const PYTHON = process.env.PYTHON ?? "/usr/bin/python3";
const TCK_MODULES = ["pytest", "pytest_asyncio", "httpx", "requests", "dotenv", "OpenSSL", "aiohttp", "responses", "yaml", "jsonschema", "deepdiff"];

let backend: TestBackend;
let mcpUrl: string;

const api = (method: string, path: string, body?: unknown): Promise<RawResponse> =>
  send({ port: backend.port, method, path, headers: { ...backend.auth, "content-type": "application/json" }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

async function until(id: string, timeoutMs: number): Promise<ConformanceRunView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api("GET", `/api/conformance/runs/${id}`);
    expect(res.status, res.text).toBe(200);
    const view = res.json<ConformanceRunView>();
    if (view.state !== "running") return view;
    if (Date.now() > deadline) throw new Error(`run ${id} still running after ${timeoutMs} ms; output so far:\n${view.output.slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

beforeAll(async () => {
  backend = await startTestBackend();
  const res = await api("POST", "/api/serve/mcp/start", { port: 0 });
  expect(res.status, res.text).toBe(200);
  mcpUrl = res.json<{ url: string }>().url;
});
afterAll(() => backend.close());

describe("the conformance routes", () => {
  it("refuse a URL that is not http(s), and GET starts nothing", async () => {
    const before = await api("GET", "/api/conformance/runs");
    expect(before.status, `the conformance routes are not mounted (wire conformanceRoutes into server/http/api-routes.ts): ${before.text}`).toBe(200);
    // Runs other tests in this file started may be listed: what matters is that nothing here adds one.
    const listed = before.json<{ runs: unknown[] }>();
    for (const url of ["file:///etc/passwd", "javascript:alert(1)", "not a url", ""]) {
      const res = await api("POST", "/api/conformance/mcp", { url });
      expect(res.status, url).toBe(400);
      expect(errorOf(res).code).toBe("invalid_url");
      expect(errorOf(res).message).toMatch(/"url"/);
    }
    expect((await api("POST", "/api/conformance/a2a", { url: "ftp://x/" })).status).toBe(400);
    expect((await api("GET", "/api/conformance/mcp")).status).toBe(405);
    expect((await api("GET", "/api/conformance/runs/anything")).status).toBe(404);
    expect((await api("GET", "/api/conformance/runs")).json()).toEqual(listed);
  });

  it("run the MCP conformance suite against the served endpoint: every scenario passes, one run at a time, Stop ends a run", async () => {
    const start = await api("POST", "/api/conformance/mcp", { url: mcpUrl });
    expect(start.status, start.text).toBe(200);
    const run = start.json<ConformanceRunView>();
    expect(run).toMatchObject({ kind: "mcp", state: "running", url: mcpUrl, requirements: "2026-07-28", passed: null });
    const again = await api("POST", "/api/conformance/mcp", { url: mcpUrl });
    expect(again.status).toBe(409);
    expect(errorOf(again)).toMatchObject({ code: "run_in_progress", message: expect.stringContaining(run.id) as unknown });

    const done = await until(run.id, 280_000);
    expect(done.problem, done.output.slice(-4000)).toBeNull();
    expect(done.state).toBe("done");
    expect(done.exitCode).toBe(0);
    expect(done.passed).toBe(true);
    const mcp = done.mcp!;
    expect(mcp.scenarios.filter((s) => !s.ok).map((s) => s.name)).toEqual([]);
    expect(mcp.scenarios).toHaveLength(SUITE_SCENARIOS);
    expect(mcp.planned).toBe(SUITE_SCENARIOS);
    expect(done.progress).toEqual({ started: SUITE_SCENARIOS, planned: SUITE_SCENARIOS });
    expect(mcp.total?.failed).toBe(0);
    expect(mcp.total?.passed).toBe(mcp.scenarios.reduce((n, s) => n + s.passed, 0));
    // Each scenario's checks came from the suite's checks.json, one passing check per counted pass.
    for (const s of mcp.scenarios) expect(s.checks?.filter((c) => c.status === "SUCCESS").length, s.name).toBe(s.passed);
    expect(mcp.scenarios.find((s) => s.name === "dns-rebinding-protection")?.checks?.map((c) => c.name)).toEqual(["DNSRebindingRejected", "LocalhostHostAccepted"]);
    expect(done.output).toContain("=== SUMMARY ===");
    process.stdout.write(`conformance route: ${mcp.scenarios.length} scenarios passed; checks ${mcp.total?.passed} passed, ${mcp.total?.failed} failed\n`);

    const second = (await api("POST", "/api/conformance/mcp", { url: mcpUrl, requirements: "2025-11-25" })).json<ConformanceRunView>();
    expect(second).toMatchObject({ state: "running", requirements: "2025-11-25" });
    const stopping = await api("POST", `/api/conformance/runs/${second.id}/stop`, {});
    expect(stopping.status).toBe(200);
    const stopped = await until(second.id, 30_000);
    expect(stopped.state).toBe("stopped");
    expect(stopped.passed).toBeNull();
    const runs = (await api("GET", "/api/conformance/runs")).json<{ runs: { id: string; state: string }[] }>().runs;
    // Listed in the order started, beside any run another test in this file started.
    expect(runs.filter((r) => r.id === run.id || r.id === second.id).map((r) => [r.id, r.state])).toEqual([
      [run.id, "done"],
      [second.id, "stopped"],
    ]);
  }, 320_000);
});

function tckPrerequisite(): string | null {
  if (!existsSync(join(TCK_HOME, "run.sh"))) return "tck_missing";
  const probe = spawnSync(PYTHON, ["-c", `import ${TCK_MODULES.join(", ")}`], { stdio: "ignore" });
  if (probe.error) return "python_missing";
  return probe.status === 0 ? null : "python_packages_missing";
}

describe("the A2A TCK route", () => {
  let agent: A2aServing;
  beforeAll(async () => {
    agent = await startA2aServing({ toolkit: DEMO_TOOLKIT, port: 0, logger: silentLogger, concurrency: 16, tck: { streamingTimeoutS: 2 } });
  });
  afterAll(() => agent.close());

  it("runs the TCK's mandatory set against the served agent in TCK mode, or names the missing prerequisite", async () => {
    const missing = tckPrerequisite();
    const start = await api("POST", "/api/conformance/a2a", { url: agent.cardUrl });
    if (missing !== null) {
      process.stdout.write(`\n!!! THE A2A TCK DID NOT RUN: ${missing}; asserting the route's prerequisite answer instead !!!\n\n`);
      expect(start.status, start.text).toBe(503);
      expect(errorOf(start).code).toBe(missing);
      expect(errorOf(start).message).toMatch(missing === "tck_missing" ? /PATCHBAY_A2A_TCK/ : /apt-get install -y/);
      return;
    }
    expect(start.status, start.text).toBe(200);
    const run = start.json<ConformanceRunView>();
    expect(run).toMatchObject({ kind: "a2a", scope: "mandatory", url: agent.cardUrl, target: `${agent.baseUrl}/` });
    const done = await until(run.id, 600_000);
    expect(done.problem, done.output.slice(-4000)).toBeNull();
    expect(done.state).toBe("done");
    const tck = done.a2a!;
    expect(tck.scope).toBe("mandatory");
    expect(tck.endpoint).toBe(agent.jsonRpcUrl);
    expect(tck.result.complete).toBe(true);
    expect(tck.result.passed).toBeGreaterThan(0);
    expect(tck.result.tests).toBe(tck.result.cases.length);
    expect(tck.result.failing, done.output.slice(-4000)).toEqual([]);
    expect(tck.result.cases.every((c) => c.id.startsWith("tests.mandatory."))).toBe(true);
    expect(done.passed).toBe(true);
    process.stdout.write(`A2A TCK route: mandatory ${tck.result.passed} passed of ${tck.result.tests}\n`);
  }, 620_000);
});
