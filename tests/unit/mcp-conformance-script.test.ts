import { describe, expect, it } from "vitest";
import { readSummary, runBroken } from "../../scripts/mcp-conformance.mjs";

const run = (summary: string, planned = 2) =>
  [
    `Running requirements 2026-07-28 (${planned} scenarios) against http://127.0.0.1:1/mcp`,
    "=== Running scenario: tools-list ===",
    // A line the server under test got printed before the summary cannot pose as a result.
    "✗ fake: 0 passed, 9 failed",
    "",
    "=== SUMMARY ===",
    summary,
    "Not scored for 2026-07-28: 1 scenario(s) run, 0 failing. These do not affect conformance.",
    "  ✓ tasks-lifecycle (extension)",
  ].join("\n");

describe("the MCP conformance step's reading of the suite's output", () => {
  it("reads each scenario after the last summary marker, the totals and the plan", () => {
    const summary = readSummary(run("✓ tools-list: 4 passed, 0 failed\n✗ caching: 7 passed, 1 failed\n\nTotal: 11 passed, 1 failed"));
    expect(summary).toEqual({
      planned: 2,
      scenarios: [
        { name: "tools-list", ok: true, passed: 4, failed: 0 },
        { name: "caching", ok: false, passed: 7, failed: 1 },
      ],
      total: { passed: 11, failed: 1 },
      failing: ["caching"],
    });
    expect(runBroken(summary)).toBe(true);
  });

  it("passes a clean run only when every planned scenario reported and nothing failed", () => {
    const clean = readSummary(run("✓ tools-list: 4 passed, 0 failed\n✓ caching: 8 passed, 0 failed\n\nTotal: 12 passed, 0 failed"));
    expect(runBroken(clean)).toBe(false);
    expect(runBroken(readSummary(run("✓ tools-list: 4 passed, 0 failed\n\nTotal: 4 passed, 0 failed")))).toBe(true);
    expect(runBroken(readSummary(run("✓ tools-list: 4 passed, 0 failed\n")))).toBe(true);
    expect(runBroken(readSummary("the suite crashed before its summary"))).toBe(true);
  });

  it("counts a scenario whose mark and figures disagree as failed", () => {
    expect(readSummary(run("✓ tools-list: 4 passed, 2 failed\n✓ caching: 8 passed, 0 failed\n\nTotal: 12 passed, 2 failed")).failing).toEqual(["tools-list"]);
  });
});
