/**
 * Reading what a finished run left: recorded suite output and checks.json files laid out as the
 * suite writes them with -o, recorded TCK JUnit files, and folders with hostile or missing files.
 */
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpFinish, node22Problem, OutputTail, tckFinish } from "./conformance-finish.ts";

const FIXTURES = join(import.meta.dirname, "../../tests/fixtures/conformance");
const fixture = (name: string) => readFile(join(FIXTURES, name), "utf8");
let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "patchbay-finish-test-"));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

async function resultDir(dir: string, name: string, checks: string): Promise<void> {
  await mkdir(join(dir, name), { recursive: true });
  await writeFile(join(dir, name, "checks.json"), checks);
}

describe("a finished MCP conformance run", () => {
  it("joins the summary with each scenario's checks.json, skipping folders that are not results", async () => {
    const dir = await mkdtemp(join(scratch, "mcp-"));
    await resultDir(dir, "server-dns-rebinding-protection-2026-12-02T17-29-33-800Z", await fixture("everything-dns-rebinding-protection.checks.json"));
    await resultDir(dir, "server-tools-call-image-2026-12-02T17-29-33-341Z", await fixture("everything-tools-call-image.checks.json"));
    await resultDir(dir, "server-ping-2026-12-02T17-29-33-100Z", "[{oops");
    await resultDir(dir, "notes", '[{"name": "Injected", "status": "SUCCESS"}]');
    await writeFile(join(dir, "server-prompts-list-2026-12-02T17-29-33-748Z"), "a file, not a folder");
    const done = await mcpFinish(await fixture("mcp-server-everything.out"), 1, dir);
    expect(done.problem).toBeNull();
    expect(done.passed).toBe(false);
    const by = (name: string) => done.mcp?.scenarios.find((s) => s.name === name);
    expect(by("dns-rebinding-protection")?.checks?.map((c) => [c.name, c.ok])).toEqual([["DNSRebindingRejected", false], ["LocalhostHostAccepted", true]]);
    expect(by("tools-call-image")?.checks?.[0]?.message).toBe("No image content found");
    expect(by("ping")?.checksProblem).toMatch(/^checks\.json is not JSON/);
    expect(by("prompts-list")?.checksProblem).toMatch(/missing or larger than/);
    expect(done.mcp?.scenarios.some((s) => s.checks?.some((c) => c.name === "Injected"))).toBe(false);
    expect(done.mcp?.total).toEqual({ passed: 13, failed: 19 });
  });

  it("passes a clean run even with no result folder to read", async () => {
    const done = await mcpFinish(await fixture("mcp-patchbay.out"), 0, join(scratch, "never-made"));
    expect(done).toMatchObject({ problem: null, passed: true });
    expect(done.mcp?.scenarios).toHaveLength(30);
  });

  it("names a suite that stopped early, with its last lines", async () => {
    const text = await fixture("mcp-patchbay.out");
    const early = await mcpFinish(text.slice(0, text.indexOf("=== SUMMARY ===")), null, scratch);
    expect(early.problem?.code).toBe("suite_incomplete");
    expect(early.problem?.message).toContain("ended on a signal before its summary");
    expect(early.problem?.message).toContain("=== Running scenario: dns-rebinding-protection ===");
    expect(early.mcp?.started).toHaveLength(30);
    const refused = await mcpFinish("Validation error:\n  url: Invalid server URL\n", 1, scratch);
    expect(refused).toMatchObject({ mcp: null, passed: null, problem: { code: "suite_incomplete", message: expect.stringContaining("Invalid server URL") as unknown } });
  });

  it("names why npx gave no Node 22", () => {
    const npm = "npm error code ENOTCACHED\nnpm error request to https://registry.npmjs.org/node failed: cache mode is 'only-if-cached'\n";
    const offline = node22Problem(npm, 1, undefined);
    expect(offline.code).toBe("node22_unavailable");
    expect(offline.message).toContain("ENOTCACHED");
    expect(offline.message).toContain("npx -y node@22 --version");
    const noNpx = Object.assign(new Error("spawn npx ENOENT"), { code: "ENOENT" });
    expect(node22Problem("", null, noNpx).message).toMatch(/^npx is not on PATH/);
  });
});

describe("a finished A2A TCK run", () => {
  it("reads the pass's JUnit XML and the endpoint the runner tested", async () => {
    const dir = await mkdtemp(join(scratch, "tck-"));
    await copyFile(join(FIXTURES, "tck-mandatory-plain.xml"), join(dir, "mandatory.xml"));
    const output = "A2A TCK 0.3.x in /tmp/t; SUT JSON-RPC endpoint: http://127.0.0.1:34331/a2a/jsonrpc; logs: /tmp/o\n== mandatory\n3 failed, 26 passed, 62 deselected in 0.91s\n";
    const done = await tckFinish(output, 1, dir, "mandatory");
    expect(done.problem).toBeNull();
    expect(done.passed).toBe(false);
    expect(done.a2a).toMatchObject({ scope: "mandatory", endpoint: "http://127.0.0.1:34331/a2a/jsonrpc", result: { tests: 29, passed: 26, failures: 3 } });
    await copyFile(join(FIXTURES, "tck-mandatory-tck-mode.xml"), join(dir, "mandatory.xml"));
    expect((await tckFinish(output, 0, dir, "mandatory")).passed).toBe(true);
  });

  it("says why when the pass wrote no results, with pytest's own log", async () => {
    const dir = await mkdtemp(join(scratch, "tck-none-"));
    await writeFile(join(dir, "mandatory.log"), "ERROR: usage: pytest [options]\npytest: error: unrecognized arguments\n");
    const broken = await tckFinish("== mandatory\n", 4, dir, "mandatory");
    expect(broken).toMatchObject({ passed: null, a2a: null, problem: { code: "tck_did_not_run" } });
    expect(broken.problem?.message).toContain("unrecognized arguments");
    const noPython = await tckFinish("missing Python packages for /usr/bin/python3; see the apt-get line at the top of run.sh\n", 2, dir, "all");
    expect(noPython.problem).toMatchObject({ code: "python_packages_missing", message: expect.stringContaining("missing Python packages") as unknown });
    await writeFile(join(dir, "all.xml"), '<?xml version="1.0"?><testsuites><testsuite tests="0"></testsuite></testsuites>');
    expect((await tckFinish("", 5, dir, "all")).problem?.code).toBe("tck_no_tests");
  });
});

describe("the output tail", () => {
  it("keeps the latest output within its bound and counts what it dropped", () => {
    const tail = new OutputTail();
    const chunk = "x".repeat(100_000);
    for (let i = 0; i < 20; i++) tail.append(chunk);
    tail.append("the end");
    expect(tail.text.endsWith("the end")).toBe(true);
    expect(tail.text.length + tail.dropped).toBe(2_000_007);
    expect(tail.text.length).toBeLessThanOrEqual(1024 * 1024);
    expect(tail.last(7)).toBe("the end");
  });
});
