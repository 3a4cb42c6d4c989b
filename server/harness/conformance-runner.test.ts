/**
 * The conformance runner's answers before and around a run: bad bodies, missing prerequisites
 * (each named with how to get it), and tools that cannot start (real npx, offline with an empty
 * cache; a PATH without npx). Full runs against real peers are in tests/integration.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/core/env/defaults.ts";
import { HttpError } from "../http/errors.ts";
import { ConformanceRunner } from "./conformance-runner.ts";
import { processToolPaths, type ToolPaths } from "./conformance-tools.ts";

let scratch: string;
let ids = 0;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "patchbay-conformance-test-"));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

function runner(env: NodeJS.ProcessEnv = {}, over: Partial<ToolPaths> = {}): ConformanceRunner {
  const real = processToolPaths();
  return new ConformanceRunner({ paths: { ...real, env: { ...real.env, ...env }, ...over }, logger: silentLogger, newId: () => `run-${++ids}` });
}

async function refusal(p: Promise<unknown>): Promise<{ status: number; code: string; message: string }> {
  try {
    await p;
  } catch (err) {
    if (err instanceof HttpError) return { status: err.status, code: err.code, message: err.message };
    throw err;
  }
  throw new Error("expected a refusal, the run started");
}

describe("starting a conformance run", () => {
  it("refuses a body that is not {url}, naming what is wrong", async () => {
    const r = runner();
    expect(await refusal(r.start("mcp", "http://x/mcp"))).toMatchObject({ status: 400, code: "invalid_body", message: expect.stringContaining('{"url": "…"}') as unknown });
    expect(await refusal(r.start("mcp", { url: "http://x/mcp", scope: "all" }))).toMatchObject({ status: 400, message: 'unknown field "scope"; expected url, requirements' });
    expect(await refusal(r.start("mcp", { url: "http://x/mcp", requirements: "2024-11-05" }))).toMatchObject({ status: 400, message: expect.stringContaining('"requirements" must be "2026-07-28" or "2025-11-25"') as unknown });
    expect(await refusal(r.start("mcp", { url: "ftp://x/mcp" }))).toMatchObject({ status: 400, code: "invalid_url", message: expect.stringContaining("must use http or https, not ftp") as unknown });
    expect(await refusal(r.start("mcp", {}))).toMatchObject({ status: 400, code: "invalid_url" });
    expect(await refusal(r.start("a2a", { url: "http://x/", scope: "some" }))).toMatchObject({ status: 400, message: expect.stringContaining('"scope" must be "mandatory"') as unknown });
    expect(await refusal(r.start("a2a", { url: "http://x/deep/.well-known/agent-card.json" }))).toMatchObject({ status: 400, code: "invalid_url", message: expect.stringContaining("only at the root of its host") as unknown });
    expect(r.list()).toEqual([]);
  });

  it("says the conformance suite is missing and how to get it, and stays free for the next try", async () => {
    const r = runner({ PATCHBAY_CONFORMANCE_JS: join(scratch, "absent", "index.js") });
    const first = await refusal(r.start("mcp", { url: "http://127.0.0.1:9/mcp" }));
    expect(first).toMatchObject({ status: 503, code: "conformance_missing" });
    expect(first.message).toContain(join(scratch, "absent", "index.js"));
    expect(first.message).toContain("npm install");
    expect((await refusal(r.start("mcp", { url: "http://127.0.0.1:9/mcp" }))).status).toBe(503);
  });

  it("says the TCK folder is missing, and where it is looked for", async () => {
    const home = join(scratch, "no-tck");
    const refused = await refusal(runner({ PATCHBAY_A2A_TCK: home }).start("a2a", { url: "http://127.0.0.1:9/" }));
    expect(refused).toMatchObject({ status: 503, code: "tck_missing" });
    expect(refused.message).toContain(join(home, "run.sh"));
    expect(refused.message).toContain("PATCHBAY_A2A_TCK");
  });

  it("says the TCK's python cannot be run, and how to install it", async () => {
    const home = join(scratch, "tck-home");
    await mkdir(home, { recursive: true });
    // The runner only checks that run.sh is there before asking python; it is never run here.
    await writeFile(join(home, "run.sh"), "exit 99\n");
    const refused = await refusal(runner({ PATCHBAY_A2A_TCK: home, PYTHON: join(scratch, "no-python3") }).start("a2a", { url: "http://127.0.0.1:9/" }));
    expect(refused).toMatchObject({ status: 503, code: "python_missing" });
    expect(refused.message).toContain("python3-pytest");
    expect(refused.message).toContain("apt-get install -y python3");
  });

  it("ends the run with a clear problem when npx cannot fetch Node 22 (offline, empty cache)", async () => {
    const cache = await mkdtemp(join(scratch, "npm-cache-"));
    const r = runner({ npm_config_offline: "true", npm_config_cache: cache, npm_config_update_notifier: "false" }, { nodeMajor: 20 });
    const started = await r.start("mcp", { url: "http://127.0.0.1:9/mcp" });
    expect(started).toMatchObject({ kind: "mcp", state: "running", url: "http://127.0.0.1:9/mcp", passed: null, mcp: null });
    expect((await refusal(r.start("mcp", { url: "http://127.0.0.1:9/mcp" }))).status).toBe(409);
    const ended = await r.whenEnded(started.id);
    expect(ended.state).toBe("failed");
    expect(ended.problem?.code).toBe("node22_unavailable");
    expect(ended.problem?.message).toContain("npx -y node@22");
    expect(ended.problem?.message).toMatch(/ENOTCACHED|ENOTFOUND|EAI_AGAIN/);
    expect(ended.output).toContain("npm error");
    expect(ended.mcp).toBeNull();
    // Free again once it ended.
    expect(r.list()).toEqual([{ id: started.id, kind: "mcp", url: "http://127.0.0.1:9/mcp", state: "failed", passed: null }]);
  }, 60_000);

  it("says npx is not on PATH when it is not", async () => {
    const r = runner({ PATH: join(scratch, "empty-path") }, { nodeMajor: 20 });
    const started = await r.start("mcp", { url: "http://127.0.0.1:9/mcp" });
    const ended = await r.whenEnded(started.id);
    expect(ended).toMatchObject({ state: "failed", problem: { code: "node22_unavailable", message: expect.stringContaining("npx is not on PATH") as unknown } });
  });

  it("stops a run that outlasts its time limit, naming why (the real suite against a peer that never answers)", async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((done) => silent.listen(0, "127.0.0.1", done));
    try {
      const { port } = silent.address() as AddressInfo;
      const real = processToolPaths();
      const r = new ConformanceRunner({ paths: real, logger: silentLogger, newId: () => "slow", timeoutMs: 4_000 });
      const started = await r.start("mcp", { url: `http://127.0.0.1:${port}/mcp` });
      const ended = await r.whenEnded(started.id);
      expect(ended).toMatchObject({ state: "failed", passed: null, problem: { code: "timeout", message: "the run was stopped after 4 seconds, the time a run may take" } });
    } finally {
      silent.closeAllConnections();
      await new Promise((done) => silent.close(done));
    }
  }, 30_000);

  it("answers 404 for a run it does not know", () => {
    expect(() => runner().view("nope")).toThrow(expect.objectContaining({ status: 404, code: "unknown_run" }) as unknown as Error);
    expect(() => runner().stop("nope")).toThrow(HttpError);
  });
});
