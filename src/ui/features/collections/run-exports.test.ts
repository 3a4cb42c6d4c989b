import { describe, expect, it } from "vitest";
import { decodeCollectionFile } from "../../../core/harness/index.ts";
import { runReport, stepReport, twoSteps } from "./collections-fakes.ts";
import { collectionFile, fileStem, junitFile, reportFile } from "./run-exports.ts";

const report = runReport("demo run", [stepReport(0, "echo", "passed"), stepReport(1, "sum <&>", "failed", { assertions: [{ assertion: { kind: "exists", pointer: "/x" }, passed: false, message: "/x is absent" }] })]);

describe("run exports", () => {
  it("writes the collection as the workspace file patchbay run reads back", () => {
    const file = collectionFile("smoke", twoSteps(), Date.UTC(2025, 0, 2));
    expect(file.fileName).toBe("smoke.json");
    expect(decodeCollectionFile(file.text, "smoke.json")).toEqual(twoSteps());
  });

  it("names report files after the collection and the run's start, and keeps the report whole", () => {
    const file = reportFile(report);
    expect(file.fileName).toBe("demo-run-run-2025-01-02T03-04-05-000Z.json");
    expect(JSON.parse(file.text)).toEqual(report);
    expect(reportFile({ ...report, startedAt: "garbage" }).fileName).toBe("demo-run-run-run.json");
  });

  it("gives JUnit XML with one testcase per step, escaped", () => {
    const file = junitFile(report);
    expect(file.fileName).toBe("demo-run-junit-2025-01-02T03-04-05-000Z.xml");
    expect(file.type).toBe("application/xml");
    expect(file.text.match(/<testcase /g)).toHaveLength(2);
    expect(file.text).toContain("sum &lt;&amp;&gt;");
    expect(file.text).toContain("/x is absent");
  });

  it("makes a safe file stem from any name", () => {
    expect(fileStem("../../etc/passwd")).toBe("etc-passwd");
    expect(fileStem("…")).toBe("collection");
    expect(fileStem("a b/c")).toBe("a-b-c");
  });
});
