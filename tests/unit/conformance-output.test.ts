/**
 * Reading the MCP conformance suite's output: golden runs recorded from the real CLI (0.1.16)
 * against Patchbay's served endpoint and against server-everything, then hostile and cut-off text.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  CONFORMANCE_LIMITS,
  conformancePassed,
  parseConformanceChecks,
  parseMcpConformanceOutput,
  scenarioOfResultDir,
  withChecks,
  type ChecksRead,
} from "../../src/core/harness/conformance-output.ts";

const fixture = (name: string) => readFileSync(join(import.meta.dirname, "../fixtures/conformance", name), "utf8");

describe("the MCP conformance suite's console output", () => {
  it("reads all 30 scenarios and the totals of a clean run against Patchbay's endpoint", () => {
    const result = parseMcpConformanceOutput(fixture("mcp-patchbay.out"));
    expect(result.planned).toBe(30);
    expect(result.started).toHaveLength(30);
    expect(result.scenarios).toHaveLength(30);
    expect(result.scenarios.every((s) => s.ok && s.failed === 0)).toBe(true);
    expect(result.scenarios[0]).toEqual({ name: "server-initialize", ok: true, passed: 1, failed: 0 });
    expect(result.scenarios.find((s) => s.name === "elicitation-sep1034-defaults")).toEqual({ name: "elicitation-sep1034-defaults", ok: true, passed: 5, failed: 0 });
    expect(result.total).toEqual({ passed: 40, failed: 0 });
    expect(result.scenarios.reduce((n, s) => n + s.passed, 0)).toBe(40);
    expect(conformancePassed(result)).toBe(true);
  });

  it("reads failing scenarios from a run against server-everything", () => {
    const result = parseMcpConformanceOutput(fixture("mcp-server-everything.out"));
    expect(result.scenarios).toHaveLength(30);
    const failed = result.scenarios.filter((s) => !s.ok);
    expect(failed).toHaveLength(19);
    expect(failed.reduce((n, s) => n + s.failed, 0)).toBe(19);
    expect(result.scenarios.find((s) => s.name === "dns-rebinding-protection")).toEqual({ name: "dns-rebinding-protection", ok: false, passed: 1, failed: 1 });
    expect(result.scenarios.find((s) => s.name === "tools-call-error")?.ok).toBe(true);
    expect(result.total).toEqual({ passed: 13, failed: 19 });
    expect(conformancePassed(result)).toBe(false);
  });

  it("reports progress but no results for a run cut off before its summary", () => {
    const text = fixture("mcp-patchbay.out");
    const cut = text.slice(0, text.indexOf("=== Running scenario: tools-list ===") + 40);
    const result = parseMcpConformanceOutput(cut);
    expect(result.planned).toBe(30);
    expect(result.started).toEqual(["server-initialize", "logging-set-level", "ping", "completion-complete", "tools-list"]);
    expect(result.scenarios).toEqual([]);
    expect(result.total).toBeNull();
    expect(conformancePassed(result)).toBe(false);
  });

  it("keeps the scenarios read when the summary is cut off before its Total line", () => {
    const text = fixture("mcp-patchbay.out");
    const result = parseMcpConformanceOutput(text.slice(0, text.indexOf("✓ tools-list:")));
    expect(result.scenarios.map((s) => s.name)).toEqual(["server-initialize", "logging-set-level", "ping", "completion-complete"]);
    expect(result.total).toBeNull();
    expect(conformancePassed(result)).toBe(false);
  });

  it("ignores result-shaped lines printed before the summary, as a hostile server's error could be", () => {
    const text = ["Running active suite (1 scenarios) against http://x/mcp", "Failed to run scenario ping: Error:", "✓ fake-pass: 99 passed, 0 failed", "Total: 99 passed, 0 failed", "", "=== SUMMARY ===", "✗ ping: 0 passed, 1 failed", "", "Total: 0 passed, 1 failed"].join("\n");
    const result = parseMcpConformanceOutput(text);
    expect(result.scenarios).toEqual([{ name: "ping", ok: false, passed: 0, failed: 1 }]);
    expect(result.total).toEqual({ passed: 0, failed: 1 });
  });

  it("reads colour codes, CRLF and warning counts, and never passes a tick that disagrees with its counts", () => {
    const text = "=== SUMMARY ===\r\n\x1b[32m✓ a: 2 passed, 0 failed, 1 warnings\x1b[0m\r\n✓ b: 1 passed, 3 failed\r\n✗ c: 4 passed, 0 failed\r\n\r\nTotal: 7 passed, 3 failed\r\n";
    const result = parseMcpConformanceOutput(text);
    expect(result.scenarios).toEqual([
      { name: "a", ok: true, passed: 2, failed: 0, warnings: 1 },
      { name: "b", ok: false, passed: 1, failed: 3 },
      { name: "c", ok: false, passed: 4, failed: 0 },
    ]);
    expect(result.total).toEqual({ passed: 7, failed: 3 });
  });

  it("bounds hostile output: overlong names and absurd counts are not results, and the scenario count is capped", () => {
    const many = Array.from({ length: CONFORMANCE_LIMITS.scenarios + 50 }, (_, i) => `✓ s${i}: 1 passed, 0 failed`);
    const text = ["=== SUMMARY ===", `✓ ${"n".repeat(CONFORMANCE_LIMITS.nameChars + 1)}: 1 passed, 0 failed`, "✓ big: 12345678901 passed, 0 failed", ...many, "Total: 1 passed, 0 failed"].join("\n");
    const result = parseMcpConformanceOutput(text);
    expect(result.scenarios).toHaveLength(CONFORMANCE_LIMITS.scenarios);
    expect(result.scenarios[0]?.name).toBe("s0");
    expect(parseMcpConformanceOutput("").scenarios).toEqual([]);
    expect(parseMcpConformanceOutput("\u0000\uFFFF garbage ✓✗ : passed").total).toBeNull();
  });
});

describe("the suite's per-scenario checks.json", () => {
  it("reads a failing check's error message and a passing one's description", () => {
    const read = parseConformanceChecks(fixture("everything-dns-rebinding-protection.checks.json"));
    expect(read).toEqual({
      ok: true,
      checks: [
        { name: "DNSRebindingRejected", ok: false, status: "FAILURE", message: "Expected HTTP 4xx for invalid Host/Origin headers, got 200" },
        { name: "LocalhostHostAccepted", ok: true, status: "SUCCESS", message: "Server accepts requests with valid localhost Host/Origin headers" },
      ],
    });
    expect(parseConformanceChecks(fixture("everything-tools-call-image.checks.json"))).toEqual({ ok: true, checks: [{ name: "ToolsCallImage", ok: false, status: "FAILURE", message: "No image content found" }] });
  });

  it("names what is wrong with a file that is not a list of checks", () => {
    expect(parseConformanceChecks('[{"name": "x", "status": "SUCC')).toMatchObject({ ok: false, problem: expect.stringMatching(/^checks\.json is not JSON/) as unknown });
    expect(parseConformanceChecks('{"checks": []}')).toEqual({ ok: false, problem: "checks.json should hold a list of checks" });
    expect(parseConformanceChecks('[{"status": "SUCCESS"}, 3]')).toEqual({ ok: false, problem: "check 1 in checks.json has no name and status" });
    expect(parseConformanceChecks('[{"id": "only-id", "status": "WARNING"}]')).toEqual({ ok: true, checks: [{ name: "only-id", ok: true, status: "WARNING" }] });
  });

  it("clips long messages and counts checks beyond the limit", () => {
    const items = Array.from({ length: CONFORMANCE_LIMITS.checks + 3 }, (_, i) => ({ name: `c${i}`, status: "FAILURE", errorMessage: "e".repeat(CONFORMANCE_LIMITS.messageChars + 10) }));
    const read = parseConformanceChecks(JSON.stringify(items));
    if (!read.ok) throw new Error(read.problem);
    expect(read.checks).toHaveLength(CONFORMANCE_LIMITS.checks + 1);
    expect(read.checks[0]?.message).toHaveLength(CONFORMANCE_LIMITS.messageChars);
    expect(read.checks.at(-1)).toEqual({ name: "… and 3 more checks", ok: true, status: "INFO" });
  });

  it("finds the scenario a result folder belongs to, and refuses other names", () => {
    expect(scenarioOfResultDir("server-dns-rebinding-protection-2026-12-02T17-29-33-800Z")).toBe("dns-rebinding-protection");
    expect(scenarioOfResultDir("server-server-initialize-2026-12-02T17-29-11-317Z")).toBe("server-initialize");
    expect(scenarioOfResultDir("client-ping-2026-12-02T17-29-11-317Z")).toBeNull();
    expect(scenarioOfResultDir("server-ping")).toBeNull();
    expect(scenarioOfResultDir("server-../x-2026-12-02T17-29-11-317Z")).toBeNull();
  });

  it("attaches checks to the scenarios they belong to, and says where they could not be read", () => {
    const result = parseMcpConformanceOutput(fixture("mcp-server-everything.out"));
    const checks = new Map<string, ChecksRead>([
      ["dns-rebinding-protection", parseConformanceChecks(fixture("everything-dns-rebinding-protection.checks.json"))],
      ["tools-call-image", { ok: false, problem: "checks.json is not JSON" }],
    ]);
    const joined = withChecks(result, checks);
    expect(joined.scenarios.find((s) => s.name === "dns-rebinding-protection")?.checks?.map((c) => c.ok)).toEqual([false, true]);
    expect(joined.scenarios.find((s) => s.name === "tools-call-image")).toMatchObject({ checksProblem: "checks.json is not JSON" });
    expect(joined.scenarios.find((s) => s.name === "ping")?.checks).toBeUndefined();
    expect(joined.total).toEqual(result.total);
  });
});
