/**
 * The official MCP conformance suite's client authorization scenarios (the devDependency
 * `@modelcontextprotocol/conformance` 0.2.0-alpha.12, or the build PATCHBAY_CONFORMANCE_JS names) against
 * `patchbay call mcp <url> test-tool --oauth`, built as it ships. Each scenario runs alone (the
 * suite's parallel mode starves a small machine) under `npx -y node@22`, which the suite needs.
 * Pre-registered credentials come from the scenario's context, as the suite passes them. The
 * draft scenarios' MCP server speaks only 2026-07-28, so those calls run with `--era auto`.
 */
import { spawn } from "node:child_process";
import { copyFile, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const CONFORMANCE = process.env.PATCHBAY_CONFORMANCE_JS ?? join(repo, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
/** The suite's fixed metadata document URL for client ID metadata documents. */
const CIMD = "https://conformance-test.local/client-metadata.json";

const SCENARIOS: readonly (readonly [string, string])[] = [
  ...[
    "metadata-default",
    "metadata-var1",
    "metadata-var2",
    "metadata-var3",
    "basic-cimd",
    "scope-from-www-authenticate",
    "scope-from-scopes-supported",
    "scope-omitted-when-undefined",
    "scope-step-up",
    "scope-retry-limit",
    "token-endpoint-auth-basic",
    "token-endpoint-auth-post",
    "token-endpoint-auth-none",
    "pre-registration",
  ].map((s) => [`auth/${s}`, "2025-11-25"] as const),
  ["auth/2025-03-26-oauth-metadata-backcompat", "2025-03-26"],
  ["auth/2025-03-26-oauth-endpoint-fallback", "2025-03-26"],
  ["auth/resource-mismatch", "draft"],
  ["auth/offline-access-scope", "draft"],
  ["auth/offline-access-not-supported", "draft"],
];

let out: string;
let client: string;

beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), "patchbay-oauth-conf-"));
  await symlink(join(repo, "node_modules"), join(out, "node_modules"), "dir");
  await copyFile(join(repo, "package.json"), join(out, "package.json"));
  await build({ configFile: join(repo, "vite.server.config.ts"), logLevel: "silent", build: { outDir: join(out, "dist/server") } });
  // The suite appends the server URL; the scenario's context (pre-registered client) comes in the environment.
  client = join(out, "client.mjs");
  await writeFile(
    client,
    `const url = process.argv.at(-1);
const ctx = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}");
const args = ["call", "mcp", url, "test-tool", "--oauth", "--oauth-wait", "5", "--oauth-client-metadata-url", ${JSON.stringify(CIMD)}];
if (process.env.PATCHBAY_CALL_ERA) args.push("--era", process.env.PATCHBAY_CALL_ERA);
if (ctx.client_id) args.push("--oauth-client-id", ctx.client_id);
if (ctx.client_secret) { process.env.CONFORMANCE_CLIENT_SECRET = ctx.client_secret; args.push("--oauth-client-secret-env", "CONFORMANCE_CLIENT_SECRET"); }
const cli = await import(${JSON.stringify(pathToFileURL(join(out, "dist/server/cli.js")).href)});
process.exit(await cli.main(args));
`,
  );
}, 120_000);
afterAll(() => rm(out, { recursive: true, force: true }));

function scenario(name: string, spec: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const args = ["-y", "node@22", CONFORMANCE, "client", "--command", `node ${client}`, "--scenario", name, "--spec-version", spec, "--timeout", "120000"];
    const child = spawn("npx", args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1", PATCHBAY_CALL_ERA: spec === "draft" ? "auto" : "" } });
    let text = "";
    child.stdout.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, out: text }));
  });
}

describe("MCP conformance, client authorization scenarios, against patchbay call mcp --oauth", () => {
  it("passes each scenario", async () => {
    expect(existsSync(CONFORMANCE), `the conformance suite is not installed at ${CONFORMANCE}; run npm ci (it is a devDependency)`).toBe(true);
    const failed: string[] = [];
    for (const [name, spec] of SCENARIOS) {
      const r = await scenario(name, spec);
      const tally = /^Passed: (\d+)\/(\d+), (\d+) failed/m.exec(r.out);
      const passed = /OVERALL: PASSED/.test(r.out) && tally !== null && tally[3] === "0";
      process.stdout.write(`conformance ${name}: ${tally ? `${tally[1]}/${tally[2]} checks` : "no tally"} ${passed ? "passed" : "FAILED"}\n`);
      if (!passed) failed.push(`${name}:\n${r.out.split("\n").filter((l) => /FAILURE|TIMED OUT|call mcp:/.test(l)).join("\n")}`);
    }
    expect(failed, failed.join("\n\n")).toEqual([]);
  }, 1_200_000);
});
