/**
 * The official MCP conformance suite's tools scenarios against `patchbay serve --http --bridge`,
 * with the tools they call served over NATS by a real `patchbay serve --nats` peer: every check
 * passes through the bridge, in the 2025-11-25 and 2026-07-28 spec versions.
 *
 * Only the tools scenarios a fisk-ai tool call can carry are run: a tool.reply is text (output,
 * exec, is_error), so tools-call-image, -audio, -embedded-resource and -mixed-content have no
 * fisk-ai form, and -with-logging, -with-progress, -sampling and -elicitation need the server to
 * talk to the client during the call, which a fisk-ai tool call cannot ask for.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { CONFORMANCE_TOOLS, startBridgeHttp, startPeer } from "../helpers/bridge-processes.ts";
import { buildCli, type BuiltCli, type ServeProcess } from "../helpers/serve-processes.ts";
import type { HttpServe } from "../helpers/served-cli.ts";

const CONFORMANCE = process.env.PATCHBAY_CONFORMANCE_JS ?? join(process.cwd(), "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const SCENARIOS = ["tools-list", "tools-call-simple-text", "tools-call-error"] as const;
const VERSIONS = ["2025-11-25", "2026-07-28"] as const;
/** Checks each scenario makes at each version (its own, the name format and deterministic order where they apply, and the wire schema check). */
const CHECKS: Record<(typeof SCENARIOS)[number], Record<(typeof VERSIONS)[number], number>> = {
  "tools-list": { "2025-11-25": 3, "2026-07-28": 4 },
  "tools-call-simple-text": { "2025-11-25": 2, "2026-07-28": 2 },
  "tools-call-error": { "2025-11-25": 2, "2026-07-28": 2 },
};

const natsUrl = inject("natsUrl");
let built: BuiltCli;
let peer: ServeProcess;
let bridge: HttpServe;
let node22: string;

beforeAll(async () => {
  expect(existsSync(CONFORMANCE), `the conformance suite is not installed at ${CONFORMANCE}; run npm ci (devDependency @modelcontextprotocol/conformance)`).toBe(true);
  const found = spawnSync("npx", ["-y", "node@22", "-p", "process.execPath"], { encoding: "utf8" });
  node22 = (found.stdout ?? "").trim().split(/\r?\n/).at(-1) ?? "";
  expect(existsSync(node22), `the suite needs Node 22 from \`npx -y node@22\`: ${found.stderr}`).toBe(true);
  built = await buildCli();
  const identity = `conformance-${crypto.randomUUID().slice(0, 8)}`;
  peer = await startPeer(built, natsUrl, identity, CONFORMANCE_TOOLS);
  bridge = await startBridgeHttp(built, natsUrl, ["--bridge", identity]);
}, 180_000);

afterAll(async () => {
  await bridge?.stop();
  await peer?.stop();
  await built?.remove();
});

function runScenario(scenario: string, version: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(node22, [CONFORMANCE, "server", "--url", bridge.url, "--scenario", scenario, "--spec-version", version], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" } });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (out += c.toString("utf8")));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, out }));
  });
}

describe("MCP conformance tools scenarios through the bridge to a fisk-ai peer", () => {
  const cases = SCENARIOS.flatMap((scenario) => VERSIONS.map((version) => ({ scenario, version, checks: CHECKS[scenario][version] })));
  it.each(cases)("$scenario at $version: all $checks checks pass", async ({ scenario, version, checks }) => {
    const { code, out } = await runScenario(scenario, version);
    // eslint-disable-next-line no-control-regex
    const plain = out.replace(/\x1b\[[0-9;]*m/g, "");
    const result = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(plain);
    process.stdout.write(`bridge conformance ${scenario} ${version}: ${result?.[0] ?? "no result line"}\n`);
    expect(result, plain.slice(-3000)).not.toBeNull();
    expect({ passed: Number(result![1]), total: Number(result![2]), failed: Number(result![3]), warnings: Number(result![4]) }, plain.slice(-3000)).toEqual({ passed: checks, total: checks, failed: 0, warnings: 0 });
    expect(code).toBe(0);
  }, 120_000);
});
