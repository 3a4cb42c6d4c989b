import { describe, expect, it } from "vitest";
import { drafts } from "../../state/drafts.svelte.ts";
import { BackendError } from "../../../core/backend/backend-client.ts";
import { ManualScheduler } from "../../../core/env/index.ts";
import type { ConformanceRunView } from "../../../core/harness/conformance-run-types.ts";
import type { TckCase } from "../../../core/harness/tck-junit.ts";
import { resultRows, resultTotals } from "./conformance-rows.ts";
import { ConformanceState, POLL_MS, type ConformancePort } from "./conformance-state.svelte.ts";

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

const running: ConformanceRunView = {
  id: "r1",
  kind: "mcp",
  url: "http://127.0.0.1:7421/mcp",
  target: "http://127.0.0.1:7421/mcp",
  scope: null,
  requirements: "2026-07-28",
  state: "running",
  startedAt: "2026-12-02T17:00:00.000Z",
  finishedAt: null,
  exitCode: null,
  output: "Running active suite (2 scenarios) against http://127.0.0.1:7421/mcp\n",
  outputDropped: 0,
  progress: { started: 1, planned: 2 },
  problem: null,
  mcp: null,
  a2a: null,
  passed: null,
};

const mcpDone: ConformanceRunView = {
  ...running,
  state: "done",
  exitCode: 1,
  finishedAt: "2026-12-02T17:00:04.000Z",
  output: `${running.output}\n=== SUMMARY ===\n✓ ping: 1 passed, 0 failed\n✗ dns-rebinding-protection: 1 passed, 1 failed\n\nTotal: 2 passed, 1 failed\n`,
  progress: { started: 2, planned: 2 },
  mcp: {
    planned: 2,
    started: ["ping", "dns-rebinding-protection"],
    total: { passed: 2, failed: 1 },
    scenarios: [
      { name: "ping", ok: true, passed: 1, failed: 0, checks: [{ name: "Ping", ok: true, status: "SUCCESS", message: "Server responds to ping requests" }] },
      {
        name: "dns-rebinding-protection",
        ok: false,
        passed: 1,
        failed: 1,
        checks: [
          { name: "DNSRebindingRejected", ok: false, status: "FAILURE", message: "Expected HTTP 4xx for invalid Host/Origin headers, got 200" },
          { name: "LocalhostHostAccepted", ok: true, status: "SUCCESS" },
        ],
      },
    ],
  },
  passed: false,
};

const tcase = (classname: string, name: string, outcome: TckCase["outcome"], message?: string): TckCase => ({ id: `${classname}::${name}`, classname, name, outcome, ...(message ? { message } : {}) });
const a2aDone: ConformanceRunView = {
  ...running,
  id: "r2",
  kind: "a2a",
  url: "http://127.0.0.1:7422/",
  target: "http://127.0.0.1:7422/",
  scope: "mandatory",
  state: "done",
  progress: null,
  a2a: {
    scope: "mandatory",
    endpoint: "http://127.0.0.1:7422/a2a/jsonrpc",
    result: {
      tests: 4,
      passed: 2,
      failures: 1,
      errors: 0,
      skipped: 1,
      complete: true,
      failing: ["tests.mandatory.protocol.t_cancel::test_cancel"],
      cases: [
        tcase("tests.mandatory.jsonrpc.t_json", "test_malformed", "passed"),
        tcase("tests.mandatory.jsonrpc.t_json", "test_unknown", "passed"),
        tcase("tests.mandatory.protocol.t_cancel", "test_cancel", "failed", "AssertionError: Task not cancelable"),
        tcase("tests.mandatory.auth.t_auth", "test_schemes", "skipped", "No security schemes declared"),
      ],
    },
  },
  passed: false,
};

/** A backend that answers each read with the next view given, and records what was asked. */
class FakeConformance implements ConformancePort {
  views: ConformanceRunView[] = [];
  refuse: Error | null = null;
  readonly calls: string[] = [];
  async startMcp(url: string, requirements?: string): Promise<ConformanceRunView> {
    this.calls.push(`mcp ${url} ${requirements ?? ""}`);
    if (this.refuse) throw this.refuse;
    return this.views.shift() ?? running;
  }
  async startA2a(url: string, scope?: string): Promise<ConformanceRunView> {
    this.calls.push(`a2a ${url} ${scope ?? ""}`);
    if (this.refuse) throw this.refuse;
    return this.views.shift() ?? running;
  }
  async run(id: string): Promise<ConformanceRunView> {
    this.calls.push(`read ${id}`);
    const next = this.views.shift();
    if (!next) throw new BackendError(404, "unknown_run", `no conformance run "${id}"`);
    return next;
  }
  async stop(id: string): Promise<ConformanceRunView> {
    this.calls.push(`stop ${id}`);
    return { ...running, id, state: "stopped" };
  }
}

function setup() {
  const api = new FakeConformance();
  const scheduler = new ManualScheduler();
  const state = new ConformanceState(api, scheduler);
  const tick = async () => {
    scheduler.advance(POLL_MS);
    await settle();
  };
  return { api, scheduler, state, tick };
}

describe("ConformanceState", () => {
  it("checks the URL before it can run, and keeps one URL per tool", () => {
    const { state } = setup();
    expect(state.canRun).toBe(false);
    state.url = "file:///etc/passwd";
    expect(state.urlProblem).toMatch(/must use http or https, not file/);
    expect(state.canRun).toBe(false);
    state.url = "http://127.0.0.1:7421/mcp";
    expect(state.urlProblem).toBeNull();
    expect(state.canRun).toBe(true);
    state.kind = "a2a";
    expect(state.url).toBe("");
    state.url = "http://127.0.0.1:7422/";
    state.kind = "mcp";
    expect(state.url).toBe("http://127.0.0.1:7421/mcp");
  });

  it("runs the MCP requirement set chosen", async () => {
    const { api, state } = setup();
    state.url = "http://127.0.0.1:7421/mcp";
    state.requirements = "2025-11-25";
    await state.start();
    expect(api.calls[0]).toBe("mcp http://127.0.0.1:7421/mcp 2025-11-25");
    state.dispose();
  });

  it("starts the suite, follows its output until done, then shows failing scenarios first with their checks", async () => {
    const { api, state, tick, scheduler } = setup();
    api.views = [running, { ...running, output: `${running.output}=== Running scenario: ping ===\n` }, mcpDone];
    state.url = " http://127.0.0.1:7421/mcp ";
    await state.start();
    expect(api.calls[0]).toBe("mcp http://127.0.0.1:7421/mcp 2026-07-28");
    expect(state.running).toBe(true);
    expect(state.canRun).toBe(false);
    await settle();
    expect(state.run?.output).toContain("=== Running scenario: ping ===");
    await tick();
    expect(state.running).toBe(false);
    expect(state.run?.passed).toBe(false);
    expect(scheduler.pending).toBe(0);
    expect(state.rows.map((r) => [r.name, r.mark, r.passed, r.failed])).toEqual([
      ["dns-rebinding-protection", "fail", 1, 1],
      ["ping", "pass", 1, 0],
    ]);
    expect(state.rows[0]?.details[0]).toEqual({ name: "DNSRebindingRejected", mark: "fail", status: "FAILURE", message: "Expected HTTP 4xx for invalid Host/Origin headers, got 200" });
    expect(state.totals).toEqual({ rows: 2, rowsPassed: 1, passed: 2, failed: 1, skipped: 0, unit: "checks", partial: false });
    state.toggle("mcp:dns-rebinding-protection");
    expect(state.open["mcp:dns-rebinding-protection"]).toBe(true);
    state.toggle("mcp:dns-rebinding-protection");
    expect(state.open["mcp:dns-rebinding-protection"]).toBe(false);
  });

  it("runs the TCK with the chosen set and groups its tests by module", async () => {
    const { api, state } = setup();
    api.views = [a2aDone];
    state.kind = "a2a";
    state.scope = "all";
    state.url = "http://127.0.0.1:7422/";
    await state.start();
    expect(api.calls).toEqual(["a2a http://127.0.0.1:7422/ all"]);
    expect(state.running).toBe(false);
    expect(state.rows.map((r) => [r.name, r.mark, r.passed, r.failed, r.skipped])).toEqual([
      ["tests.mandatory.protocol.t_cancel", "fail", 0, 1, 0],
      ["tests.mandatory.jsonrpc.t_json", "pass", 2, 0, 0],
      ["tests.mandatory.auth.t_auth", "skip", 0, 0, 1],
    ]);
    expect(state.rows[0]?.details).toEqual([{ name: "test_cancel", mark: "fail", status: "failed", message: "AssertionError: Task not cancelable" }]);
    expect(state.totals).toMatchObject({ passed: 2, failed: 1, skipped: 1, unit: "tests", partial: false });
  });

  it("shows a missing prerequisite in the backend's words, and a run that ended without results", async () => {
    const { api, state } = setup();
    api.refuse = new BackendError(503, "tck_missing", "the A2A TCK is not here: /x/run.sh is missing");
    state.kind = "a2a";
    state.url = "http://127.0.0.1:7422/";
    await state.start();
    expect(state.error).toBe("the A2A TCK is not here: /x/run.sh is missing");
    expect(state.run).toBeNull();
    expect(state.canRun).toBe(true);
    api.refuse = null;
    api.views = [{ ...running, state: "failed", problem: { code: "node22_unavailable", message: "`npx -y node@22` could not provide Node 22" } }];
    state.kind = "mcp";
    state.url = "http://127.0.0.1:7421/mcp";
    await state.start();
    expect(state.error).toBeNull();
    expect(state.problem).toBe("`npx -y node@22` could not provide Node 22");
    expect(state.rows).toEqual([]);
    expect(state.totals).toBeNull();
  });

  it("stops the run on show, and says so when the run is lost", async () => {
    const { api, state, tick, scheduler } = setup();
    api.views = [running, running];
    state.url = "http://127.0.0.1:7421/mcp";
    await state.start();
    await settle();
    await state.stop();
    expect(api.calls.at(-1)).toBe("stop r1");
    expect(state.run?.state).toBe("stopped");
    expect(scheduler.pending).toBe(0);
    await state.stop();
    expect(api.calls.filter((c) => c.startsWith("stop"))).toHaveLength(1);

    api.views = [running];
    await state.start();
    await tick();
    expect(state.error).toBe('lost the run: no conformance run "r1"');
    expect(scheduler.pending).toBe(0);
  });
});

describe("the results table rows", () => {
  it("has none before results, and marks a partial TCK file", () => {
    expect(resultRows(null)).toEqual([]);
    expect(resultTotals(running)).toBeNull();
    const partial = { ...a2aDone, a2a: { ...a2aDone.a2a!, result: { ...a2aDone.a2a!.result, complete: false } } };
    expect(resultTotals(partial)?.partial).toBe(true);
    const noted = { ...mcpDone, mcp: { ...mcpDone.mcp!, scenarios: [{ name: "x", ok: true, passed: 1, failed: 0, checksProblem: "checks.json is not JSON" }] } };
    expect(resultRows(noted)[0]).toMatchObject({ note: "checks.json is not JSON", details: [] });
  });
});

describe("ConformanceState across a reload", () => {
  it("comes back with the suite, the URL of each and the TCK scope it had; a draft that does not fit is left alone", () => {
    try {
      drafts.save("conformance.form", { kind: "a2a", urls: { mcp: "http://127.0.0.1:7421/mcp", a2a: "http://127.0.0.1:7422" }, scope: "all" });
      const back = new ConformanceState({} as ConformancePort, new ManualScheduler());
      expect([back.kind, back.url, back.urls.mcp, back.scope]).toEqual(["a2a", "http://127.0.0.1:7422", "http://127.0.0.1:7421/mcp", "all"]);
      drafts.save("conformance.form", { kind: "bogus", urls: ["x"], scope: "some" });
      const fresh = new ConformanceState({} as ConformancePort, new ManualScheduler());
      expect([fresh.kind, fresh.urls, fresh.scope]).toEqual(["mcp", { mcp: "", a2a: "" }, "mandatory"]);
    } finally {
      drafts.clear();
    }
  });
});
