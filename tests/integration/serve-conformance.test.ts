/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance` 0.1.16, server mode,
 * active suite) against the backend's MCP endpoint serving the demo agent with its fixtures.
 * The suite needs Node 22 (it calls fs.globSync), so it runs under `npx -y node@22`.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send, startTestBackend, type TestBackend } from "../helpers/http-client.ts";

const SUITE_SCENARIOS = 30;
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

function runSuite(): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("npx", ["-y", "node@22", CONFORMANCE, "server", "--url", url], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, out }));
  });
}

describe("MCP conformance, server mode, active suite", () => {
  it("passes every scenario", async () => {
    expect(existsSync(CONFORMANCE), `the conformance suite is not installed at ${CONFORMANCE}; add @modelcontextprotocol/conformance@0.1.16 to devDependencies`).toBe(true);
    const { code, out } = await runSuite();
    const scenarios = [...out.matchAll(/^([✓✗]) (\S+): (\d+) passed, (\d+) failed$/gmu)].map((m) => ({ ok: m[1] === "✓", name: m[2]!, passed: Number(m[3]), failed: Number(m[4]) }));
    const total = /^Total: (\d+) passed, (\d+) failed$/m.exec(out);
    const passed = scenarios.filter((s) => s.ok).length;
    process.stdout.write(`conformance: ${passed}/${scenarios.length} scenarios passed; checks ${total?.[1] ?? "?"} passed, ${total?.[2] ?? "?"} failed\n`);
    expect(scenarios.filter((s) => !s.ok).map((s) => s.name), out.slice(-4000)).toEqual([]);
    expect(scenarios).toHaveLength(SUITE_SCENARIOS);
    expect(total?.[2]).toBe("0");
    expect(code).toBe(0);
  }, 300_000);
});
