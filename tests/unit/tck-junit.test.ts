/**
 * Reading the A2A TCK's JUnit XML: files recorded from the real TCK (0.3.x) against Patchbay's
 * served agent, with and without --tck, then cut-off and hostile files.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseTckJunit, TCK_LIMITS } from "../../src/core/harness/tck-junit.ts";
import { mandatoryBroken, readJunit } from "../../scripts/a2a-tck.mjs";

const fixture = (name: string) => readFileSync(join(import.meta.dirname, "../fixtures/conformance", name), "utf8");
const suite = (cases: string, tests: number) => `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" tests="${tests}">${cases}</testsuite></testsuites>`;

describe("the A2A TCK's JUnit XML", () => {
  it("reads every mandatory test as passed for the agent in TCK mode", () => {
    const result = parseTckJunit(fixture("tck-mandatory-tck-mode.xml"));
    expect(result).toMatchObject({ tests: 29, passed: 29, failures: 0, errors: 0, skipped: 0, failing: [], complete: true });
    expect(result.cases[0]).toEqual({ id: "tests.mandatory.jsonrpc.test_json_rpc_compliance::test_rejects_malformed_json", classname: "tests.mandatory.jsonrpc.test_json_rpc_compliance", name: "test_rejects_malformed_json", outcome: "passed", seconds: expect.any(Number) as unknown });
  });

  it("reads the three mandatory failures of the plain agent with their decoded messages", () => {
    const result = parseTckJunit(fixture("tck-mandatory-plain.xml"));
    expect(result).toMatchObject({ tests: 29, passed: 26, failures: 3, errors: 0, skipped: 0, complete: true });
    expect(result.failing).toEqual([
      "tests.mandatory.protocol.test_message_send_method::test_message_send_continue_task",
      "tests.mandatory.protocol.test_state_transitions::test_task_history_length",
      "tests.mandatory.protocol.test_tasks_cancel_method::test_tasks_cancel_valid",
    ]);
    const cancel = result.cases.find((c) => c.name === "test_tasks_cancel_valid");
    expect(cancel?.outcome).toBe("failed");
    expect(cancel?.message).toMatch(/^AssertionError: Task cancellation failed: \{'error': \{'code': -32002/);
    expect(cancel?.message).toContain("\nassert False");
  });

  it("reads skips and xfails of the whole suite, and agrees with the script's figures", () => {
    const xml = fixture("tck-all-plain.xml");
    const result = parseTckJunit(xml);
    expect(result).toMatchObject({ tests: 212, passed: 105, failures: 11, errors: 0, skipped: 96, complete: true });
    const xfail = result.cases.find((c) => c.name === "test_https_url_in_agent_card");
    expect(xfail).toMatchObject({ outcome: "skipped", message: "xfail: When testing locally, the https in agent card is not available" });
    const script = readJunit(xml);
    expect({ tests: result.tests, passed: result.passed, failures: result.failures, errors: result.errors, skipped: result.skipped, failing: result.failing }).toEqual(script);
    expect(mandatoryBroken(script)).toBe(true);
  });

  it("keeps the tests read from a file cut off mid-test, and marks it incomplete", () => {
    const xml = fixture("tck-mandatory-plain.xml");
    const cut = xml.slice(0, xml.indexOf("test_tasks_cancel_valid") + 10);
    const result = parseTckJunit(cut);
    expect(result.complete).toBe(false);
    expect(result.tests).toBeGreaterThan(0);
    expect(result.tests).toBeLessThan(29);
    expect(result.cases.some((c) => c.name === "test_tasks_cancel_valid")).toBe(false);
    expect(parseTckJunit(cut.slice(0, cut.lastIndexOf("<testcase") + 20)).complete).toBe(false);
  });

  it("marks a file whose suite count disagrees with its tests as incomplete", () => {
    const result = parseTckJunit(suite('<testcase classname="a" name="t1" />', 2));
    expect(result).toMatchObject({ tests: 1, passed: 1, complete: false });
    expect(parseTckJunit(suite('<testcase classname="a" name="t1" />', 1)).complete).toBe(true);
  });

  it("reads errors, entity-encoded names and quotes holding '>' without being fooled", () => {
    const cases = [
      '<testcase classname="a.b" name="test_x[&lt;1&gt;&amp;&#39;&#x41;]" time="0.5"><error message="boom &quot;here&quot;">trace</error></testcase>',
      '<testcase classname="a.b" name="test_gt" time="oops" note="a > b"><failure>only text &#0; &#xD800;</failure></testcase>',
      "<testcases>not a test</testcases>",
    ].join("");
    const result = parseTckJunit(suite(cases, 2));
    expect(result.cases).toEqual([
      { id: "a.b::test_x[<1>&'A]", classname: "a.b", name: "test_x[<1>&'A]", outcome: "error", message: 'boom "here"', seconds: 0.5 },
      { id: "a.b::test_gt", classname: "a.b", name: "test_gt", outcome: "failed", message: "only text \u0000 \uFFFD" },
    ]);
    expect(result).toMatchObject({ errors: 1, failures: 1, failing: ["a.b::test_x[<1>&'A]", "a.b::test_gt"], complete: true });
  });

  it("bounds hostile files: an unclosed tag, too many tests, overlong messages", () => {
    expect(parseTckJunit(`<testsuite tests="1"><testcase name="${"x".repeat(TCK_LIMITS.tagChars + 10)}`)).toMatchObject({ tests: 0, complete: false });
    const many = Array.from({ length: TCK_LIMITS.cases + 5 }, (_, i) => `<testcase classname="c" name="t${i}" />`).join("");
    expect(parseTckJunit(suite(many, TCK_LIMITS.cases + 5))).toMatchObject({ tests: TCK_LIMITS.cases, complete: false });
    const long = parseTckJunit(suite(`<testcase classname="c" name="t"><failure message="${"m".repeat(TCK_LIMITS.messageChars * 2)}" /></testcase>`, 1));
    expect(long.cases[0]?.message).toHaveLength(TCK_LIMITS.messageChars);
    expect(parseTckJunit("")).toMatchObject({ tests: 0, complete: false });
    expect(parseTckJunit("not xml at all <<<>>>")).toMatchObject({ tests: 0, complete: false });
  });
});
