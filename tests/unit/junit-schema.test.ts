import { readFile } from "node:fs/promises";
import { validateXML } from "xmllint-wasm";
import { beforeAll, describe, expect, it } from "vitest";
import { junitXml } from "../../src/core/harness/junit.ts";
import type { RunReport, StepReport } from "../../src/core/harness/run-types.ts";

const HOSTILE = `<x a="1">&amp; ]]> \u0000\u0001\u001f \ud800\udfff\udc00 😀 \ufffe\uffff\r\n</x>`;

function step(index: number, status: StepReport["status"], extra: Partial<StepReport> = {}): StepReport {
  return {
    index,
    name: `step ${index} ${HOSTILE}`,
    protocol: (["mcp", "a2a", "nats"] as const)[index % 3]!,
    target: "t",
    status,
    assertions: [
      { assertion: { kind: "valid" }, passed: true, message: "valid" },
      { assertion: { kind: "equals", pointer: "/a", value: HOSTILE }, passed: status !== "failed", message: `got ${HOSTILE}` },
    ],
    outcome: { kind: "result", message: HOSTILE },
    latencyMs: 3.5,
    frames: [
      { direction: "sent", atMs: 0, channel: `POST ${HOSTILE}`, text: HOSTILE },
      { direction: "received", atMs: 3, text: HOSTILE, validity: { valid: false, problems: [HOSTILE] } },
    ],
    captured: { v: HOSTILE },
    ...extra,
  };
}

const report: RunReport = {
  format: "patchbay.run",
  version: 1,
  collection: `c ${HOSTILE}`,
  environment: HOSTILE,
  startedAt: "2026-01-01T00:00:00.000Z",
  durationMs: 10,
  stopped: false,
  steps: [step(0, "passed"), step(1, "failed"), step(2, "error", { error: HOSTILE }), step(3, "skipped", { error: HOSTILE })],
  totals: { steps: 4, passed: 1, failed: 1, errors: 1, skipped: 1 },
};

let xsd = "";
const validate = (xml: string) => validateXML({ xml: [{ fileName: "report.xml", contents: xml }], schema: [xsd] });

describe("the JUnit output against a JUnit XSD", { timeout: 30_000 }, () => {
  beforeAll(async () => {
    xsd = await readFile(new URL("../fixtures/junit/junit.xsd", import.meta.url), "utf8");
  });

  it("accepts a report with every status and hostile text everywhere", async () => {
    const result = await validate(junitXml(report));
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("accepts several suites and an empty run", async () => {
    const result = await validate(junitXml([report, { ...report, collection: "empty", steps: [] }]));
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("rejects a testcase without a name, so the check can fail", async () => {
    const broken = junitXml(report).replace(/<testcase name="[^"]*" /, "<testcase ");
    const result = await validate(broken);
    expect(result.valid).toBe(false);
    expect(result.errors.map((e) => e.message).join("\n")).toMatch(/name/);
  });

  it("rejects a count that is not an integer and a failure outside a testcase", async () => {
    const xml = junitXml(report);
    expect((await validate(xml.replace(/(<testsuite [^>]*)tests="4"/, '$1tests="four"'))).valid).toBe(false);
    expect((await validate(xml.replace("<properties>", '<failure message="x"/><properties>'))).valid).toBe(false);
  });

  it("rejects a document that is not well-formed, as raw hostile text would be", async () => {
    const raw = junitXml(report).replace("<system-out>", `<system-out>${"<&\u0001"}`);
    expect((await validate(raw)).valid).toBe(false);
  });
});
