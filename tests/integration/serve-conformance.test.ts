/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance` 0.2.0-alpha.12, server
 * mode) against the backend's MCP endpoint serving the demo agent with its fixtures (the Serve
 * workbench's surface), once per requirement set: 2026-07-28 (stateless, `_meta` on every
 * request, MRTR, the tasks extension) and 2025-11-25 (initialize and sessions). `scripts/mcp-
 * conformance.mjs` runs the same sets against `patchbay serve --http` as a stage of npm test.
 * The suite needs Node 22 (it calls fs.globSync), so it runs under `npx -y node@22`.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSummary } from "../../scripts/mcp-conformance.mjs";
import { send, startTestBackend, type TestBackend } from "../helpers/http-client.ts";

/** Each requirement set of 0.2.0-alpha.12 and the scenarios it runs (scored and not scored). */
const SETS = [
  { set: "2026-07-28", scenarios: 50 },
  { set: "2025-11-25", scenarios: 33 },
] as const;
/** A local copy (e.g. from `npm pack`) may be named instead of the devDependency. */
const CONFORMANCE = process.env.PATCHBAY_CONFORMANCE_JS ?? join(process.cwd(), "node_modules/@modelcontextprotocol/conformance/dist/index.js");

let backend: TestBackend;
let url: string;

beforeAll(async () => {
  backend = await startTestBackend();
  const res = await send({
    port: backend.port,
    method: "POST",
    path: "/api/serve/mcp/start",
    headers: { ...backend.auth, "content-type": "application/json" },
    body: JSON.stringify({ port: 0 }),
  });
  url = res.json<{ url: string }>().url;
});
afterAll(() => backend.close());

function runSuite(requirements: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("npx", ["-y", "node@22", CONFORMANCE, "server", "--url", url, "--requirements", requirements], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1" },
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, out }));
  });
}

describe("MCP conformance, server mode, against the Serve workbench's MCP surface", () => {
  it.each(SETS)("passes every scenario of --requirements $set", async ({ set, scenarios }) => {
    expect(existsSync(CONFORMANCE), `the conformance suite is not installed at ${CONFORMANCE}; run npm ci (devDependency @modelcontextprotocol/conformance@0.2.0-alpha.12)`).toBe(true);
    const { code, out } = await runSuite(set);
    const summary = readSummary(out);
    const passed = summary.scenarios.filter((s) => s.ok).length;
    process.stdout.write(`conformance ${set}: ${passed}/${summary.scenarios.length} scenarios passed; checks ${summary.total?.passed ?? "?"} passed, ${summary.total?.failed ?? "?"} failed\n`);
    expect(summary.failing, out.slice(-4000)).toEqual([]);
    expect(summary.planned).toBe(scenarios);
    expect(summary.scenarios).toHaveLength(scenarios);
    expect(summary.total?.failed).toBe(0);
    expect(code).toBe(0);
  }, 300_000);
});
