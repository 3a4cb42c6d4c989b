/**
 * The page's view of the backend's /api/conformance routes: start the MCP conformance suite or
 * the A2A TCK against a URL, read a run, stop it. Every answer is checked down to the fields the
 * page shows (state, output, each scenario's and test's result); a malformed one becomes a plain error.
 */
import type { ConformanceCheck, ConformanceScenario, McpConformanceResult } from "../harness/conformance-output.ts";
import { MCP_REQUIREMENTS, type ConformanceProblem, type ConformanceRunSummary, type ConformanceRunView, type ConformanceState, type McpRequirements, type TckRunResult, type TckScope } from "../harness/conformance-run-types.ts";
import type { ConformanceKind } from "../harness/conformance-target.ts";
import type { TckCase, TckOutcome } from "../harness/tck-junit.ts";
import type { BackendClient } from "./backend-client.ts";
import { opt, Reader } from "./serve-api-read.ts";

const STATES: ReadonlySet<string> = new Set<ConformanceState>(["running", "done", "stopped", "failed"]);
const KINDS: ReadonlySet<string> = new Set<ConformanceKind>(["mcp", "a2a"]);
const SCOPES: ReadonlySet<string> = new Set<TckScope>(["mandatory", "all"]);
const OUTCOMES: ReadonlySet<string> = new Set<TckOutcome>(["passed", "failed", "error", "skipped"]);
const REQUIREMENTS: ReadonlySet<string> = new Set<string>(MCP_REQUIREMENTS);

function oneOf<T extends string>(r: Reader, o: Record<string, unknown>, key: string, path: string, allowed: ReadonlySet<string>): T {
  const v = o[key];
  return typeof v === "string" && allowed.has(v) ? (v as T) : r.fail(`${path}.${key}`, `one of ${[...allowed].join(", ")}`);
}

const nullable = <T>(o: Record<string, unknown>, key: string, read: () => T): T | null => (o[key] === null ? null : read());
const optStr = (r: Reader, o: Record<string, unknown>, key: string, path: string): string | undefined => (o[key] === undefined ? undefined : r.str(o, key, path));

function check(r: Reader, v: unknown, path: string): ConformanceCheck {
  const o = r.obj(v, path);
  return { name: r.str(o, "name", path), ok: r.bool(o, "ok", path), status: r.str(o, "status", path), ...opt("message", optStr(r, o, "message", path)) };
}

function scenario(r: Reader, v: unknown, path: string): ConformanceScenario {
  const o = r.obj(v, path);
  return {
    name: r.str(o, "name", path),
    ok: r.bool(o, "ok", path),
    passed: r.num(o, "passed", path),
    failed: r.num(o, "failed", path),
    ...opt("warnings", o.warnings === undefined ? undefined : r.num(o, "warnings", path)),
    ...opt("checks", o.checks === undefined ? undefined : r.list(o, "checks", path, (c, p) => check(r, c, p))),
    ...opt("checksProblem", optStr(r, o, "checksProblem", path)),
  };
}

function mcpResult(r: Reader, v: unknown, path: string): McpConformanceResult {
  const o = r.obj(v, path);
  const total = nullable(o, "total", () => r.obj(o.total, `${path}.total`));
  return {
    scenarios: r.list(o, "scenarios", path, (s, p) => scenario(r, s, p)),
    total: total ? { passed: r.num(total, "passed", `${path}.total`), failed: r.num(total, "failed", `${path}.total`) } : null,
    planned: nullable(o, "planned", () => r.num(o, "planned", path)),
    started: r.list(o, "started", path, (s, p) => (typeof s === "string" ? s : r.fail(p, "a string"))),
  };
}

function tckCase(r: Reader, v: unknown, path: string): TckCase {
  const o = r.obj(v, path);
  return {
    id: r.str(o, "id", path),
    classname: r.str(o, "classname", path),
    name: r.str(o, "name", path),
    outcome: oneOf<TckOutcome>(r, o, "outcome", path, OUTCOMES),
    ...opt("message", optStr(r, o, "message", path)),
    ...opt("seconds", o.seconds === undefined ? undefined : r.num(o, "seconds", path)),
  };
}

function tckResult(r: Reader, v: unknown, path: string): TckRunResult {
  const o = r.obj(v, path);
  const res = r.obj(o.result, `${path}.result`);
  const p = `${path}.result`;
  return {
    scope: oneOf<TckScope>(r, o, "scope", path, SCOPES),
    endpoint: nullable(o, "endpoint", () => r.str(o, "endpoint", path)),
    result: {
      tests: r.num(res, "tests", p),
      passed: r.num(res, "passed", p),
      failures: r.num(res, "failures", p),
      errors: r.num(res, "errors", p),
      skipped: r.num(res, "skipped", p),
      cases: r.list(res, "cases", p, (c, cp) => tckCase(r, c, cp)),
      failing: r.list(res, "failing", p, (s, sp) => (typeof s === "string" ? s : r.fail(sp, "a string"))),
      complete: r.bool(res, "complete", p),
    },
  };
}

function problem(r: Reader, v: unknown, path: string): ConformanceProblem {
  const o = r.obj(v, path);
  return { code: r.str(o, "code", path), message: r.str(o, "message", path) };
}

function runView(r: Reader, body: unknown): ConformanceRunView {
  const o = r.obj(body, "");
  const progress = nullable(o, "progress", () => r.obj(o.progress, ".progress"));
  return {
    id: r.str(o, "id", ""),
    kind: oneOf<ConformanceKind>(r, o, "kind", "", KINDS),
    url: r.url(o, "url", ""),
    target: r.url(o, "target", ""),
    scope: nullable(o, "scope", () => oneOf<TckScope>(r, o, "scope", "", SCOPES)),
    requirements: o.requirements === undefined || o.requirements === null ? null : oneOf<McpRequirements>(r, o, "requirements", "", REQUIREMENTS),
    state: oneOf<ConformanceState>(r, o, "state", "", STATES),
    startedAt: r.str(o, "startedAt", ""),
    finishedAt: nullable(o, "finishedAt", () => r.str(o, "finishedAt", "")),
    exitCode: o.exitCode === null ? null : typeof o.exitCode === "number" && Number.isInteger(o.exitCode) ? o.exitCode : r.fail(".exitCode", "a whole number or null"),
    output: r.str(o, "output", ""),
    outputDropped: r.num(o, "outputDropped", ""),
    progress: progress ? { started: r.num(progress, "started", ".progress"), planned: nullable(progress, "planned", () => r.num(progress, "planned", ".progress")) } : null,
    problem: nullable(o, "problem", () => problem(r, o.problem, ".problem")),
    mcp: nullable(o, "mcp", () => mcpResult(r, o.mcp, ".mcp")),
    a2a: nullable(o, "a2a", () => tckResult(r, o.a2a, ".a2a")),
    passed: nullable(o, "passed", () => r.bool(o, "passed", "")),
  };
}

export class ConformanceApi {
  readonly #client: Pick<BackendClient, "call">;

  constructor(client: Pick<BackendClient, "call">) {
    this.#client = client;
  }

  /** Starts the MCP conformance suite against an MCP endpoint URL, for a requirement set (the backend's default, 2026-07-28, unless told). */
  async startMcp(url: string, requirements?: McpRequirements): Promise<ConformanceRunView> {
    const body = requirements === undefined ? { url } : { url, requirements };
    return runView(new Reader("POST /api/conformance/mcp"), await this.#client.call<unknown>("POST", "/conformance/mcp", body));
  }

  /** Starts the A2A TCK against an agent's base, card or JSON-RPC URL; the mandatory set unless told. */
  async startA2a(url: string, scope?: TckScope): Promise<ConformanceRunView> {
    const body = scope === undefined ? { url } : { url, scope };
    return runView(new Reader("POST /api/conformance/a2a"), await this.#client.call<unknown>("POST", "/conformance/a2a", body));
  }

  async run(id: string): Promise<ConformanceRunView> {
    return runView(new Reader("GET /api/conformance/runs/:id"), await this.#client.call<unknown>("GET", `/conformance/runs/${encodeURIComponent(id)}`));
  }

  async runs(): Promise<ConformanceRunSummary[]> {
    const r = new Reader("GET /api/conformance/runs");
    const body = r.obj(await this.#client.call<unknown>("GET", "/conformance/runs"), "");
    return r.list(body, "runs", "", (v, p) => {
      const o = r.obj(v, p);
      return { id: r.str(o, "id", p), kind: oneOf<ConformanceKind>(r, o, "kind", p, KINDS), url: r.str(o, "url", p), state: oneOf<ConformanceState>(r, o, "state", p, STATES), passed: nullable(o, "passed", () => r.bool(o, "passed", p)) };
    });
  }

  async stop(id: string): Promise<ConformanceRunView> {
    return runView(new Reader("POST /api/conformance/runs/:id/stop"), await this.#client.call<unknown>("POST", `/conformance/runs/${encodeURIComponent(id)}/stop`, {}));
  }
}
