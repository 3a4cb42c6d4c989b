import { describe, expect, it } from "vitest";
import { mandatoryBroken, readJunit } from "../../scripts/a2a-tck.mjs";

const xml = (cases: string, counts: string) => `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" ${counts} time="3.6">${cases}</testsuite></testsuites>`;

describe("the A2A TCK step's reading of pytest's JUnit XML", () => {
  it("counts passed as tests minus failures, errors and skips, and names what failed", () => {
    const figures = readJunit(
      xml(
        [
          '<testcase classname="tests.mandatory.a" name="test_ok" time="0.1" />',
          '<testcase classname="tests.mandatory.a" name="test_bad" time="0.1"><failure message="assert False">trace</failure></testcase>',
          '<testcase classname="tests.optional.b" name="test_broke" time="0.1"><error message="boom">trace</error></testcase>',
          '<testcase classname="tests.optional.b" name="test_skip" time="0"><skipped type="pytest.skip" message="no streaming">why</skipped></testcase>',
          '<testcase classname="tests.optional.b" name="test_ok_too" time="0.1"></testcase>',
        ].join(""),
        'errors="1" failures="1" skipped="1" tests="5"',
      ),
    );
    expect(figures).toEqual({ tests: 5, failures: 1, errors: 1, skipped: 1, passed: 2, failing: ["tests.mandatory.a::test_bad", "tests.optional.b::test_broke"] });
  });

  it("fails the step on any mandatory failure or error, or when nothing passed", () => {
    const clean = readJunit(xml('<testcase classname="a" name="t" />', 'errors="0" failures="0" skipped="0" tests="1"'));
    expect(mandatoryBroken(clean)).toBe(false);
    expect(mandatoryBroken({ ...clean, failures: 1 })).toBe(true);
    expect(mandatoryBroken({ ...clean, errors: 1 })).toBe(true);
    expect(mandatoryBroken(readJunit(xml("", 'errors="0" failures="0" skipped="0" tests="0"')))).toBe(true);
  });
});
