import { describe, expect, it } from "vitest";
import { junitXml } from "./junit.ts";
import { xmlAttr, xmlSafe, xmlText } from "./junit-text.ts";
import type { RunReport, StepReport } from "./run-types.ts";

const HOSTILE = `<b>&amp; "q" ]]> \u0000 nul \u0001 soh \ud800 lone 😀 emoji\r\nend`;

const passed: StepReport = {
  index: 0,
  name: "list tools",
  protocol: "mcp",
  target: "everything",
  status: "passed",
  assertions: [{ assertion: { kind: "outcome", is: "result" }, passed: true, message: "outcome is result" }],
  outcome: { kind: "result", message: "13 tools" },
  latencyMs: 12.3456,
  frames: [
    { direction: "sent", atMs: 0, channel: "POST /mcp", text: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' },
    { direction: "received", atMs: 12, channel: "SSE message", text: '{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}' },
  ],
  captured: { cursor: "abc" },
};

const failed: StepReport = {
  index: 1,
  name: 'echo <"x">',
  protocol: "mcp",
  target: "everything",
  status: "failed",
  assertions: [
    { assertion: { kind: "outcome", is: "result" }, passed: true, message: "outcome is result" },
    { assertion: { kind: "equals", pointer: "/result/content/0/text", value: "Echo: hi" }, passed: false, message: 'expected "Echo: hi" at /result/content/0/text; got "Echo: ho" & more' },
    { assertion: { kind: "latency", belowMs: 5 }, passed: false, message: "took 40 ms" },
  ],
  outcome: { kind: "result", message: "Echo: ho" },
  latencyMs: 40,
  frames: [{ direction: "received", atMs: 40, channel: "POST /mcp", text: HOSTILE }],
  captured: {},
};

const errored: StepReport = {
  index: 2,
  name: "tool on nats",
  protocol: "nats",
  target: "fisk",
  status: "error",
  assertions: [],
  frames: [],
  captured: {},
  error: "unresolved variable {{natsUrl}}",
};

const skipped: StepReport = { index: 3, name: "send", protocol: "a2a", target: "agent", status: "skipped", assertions: [], frames: [], captured: {}, error: "the run was stopped" };

const report: RunReport = {
  format: "patchbay.run",
  version: 1,
  collection: "smoke.v2",
  environment: "staging",
  startedAt: "2026-03-04T05:06:07.890Z",
  durationMs: 1234.5,
  stopped: true,
  steps: [passed, failed, errored, skipped],
  totals: { steps: 4, passed: 1, failed: 1, errors: 1, skipped: 1 },
};

const attr = (xml: string, element: string, name: string): string | undefined => new RegExp(`<${element}\\b[^>]*\\s${name}="([^"]*)"`).exec(xml)?.[1];

describe("junitXml", () => {
  const xml = junitXml(report);

  it("writes the declaration, the totals and one testsuite with the environment as a property", () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')).toBe(true);
    expect([attr(xml, "testsuites", "tests"), attr(xml, "testsuites", "failures"), attr(xml, "testsuites", "errors"), attr(xml, "testsuites", "skipped")]).toEqual(["4", "1", "1", "1"]);
    expect(attr(xml, "testsuites", "time")).toBe("1.235");
    expect(attr(xml, "testsuite", "name")).toBe("smoke.v2");
    expect(attr(xml, "testsuite", "timestamp")).toBe("2026-03-04T05:06:07");
    expect(xml).toContain('<property name="environment" value="staging"/>');
    expect(xml.match(/<testsuite /g)).toHaveLength(1);
    expect(xml.match(/<testcase /g)).toHaveLength(4);
    expect(xml.trimEnd().endsWith("</testsuites>")).toBe(true);
  });

  it("names each testcase by step, classname by collection and protocol, time in seconds", () => {
    expect(xml).toContain('<testcase name="list tools" classname="patchbay.smoke_v2.mcp" time="0.012">');
    expect(xml).toContain('<testcase name="echo &lt;&quot;x&quot;&gt;" classname="patchbay.smoke_v2.mcp" time="0.040">');
    expect(xml).toContain('<testcase name="tool on nats" classname="patchbay.smoke_v2.nats" time="0.000">');
  });

  it("gives a failed step a failure with the first failing message and every assertion in the body", () => {
    const failure = /<failure message="([^"]*)" type="([^"]*)">([^<]*)<\/failure>/.exec(xml);
    expect(failure?.[1]).toBe("expected &quot;Echo: hi&quot; at /result/content/0/text; got &quot;Echo: ho&quot; &amp; more");
    expect(failure?.[2]).toBe("equals");
    const body = failure?.[3] ?? "";
    expect(body.split("\n")).toHaveLength(3);
    expect(body).toContain("PASS outcome is result");
    expect(body).toContain("FAIL latency below 5 ms: took 40 ms");
  });

  it("writes error and skipped elements with their reasons, and no failure for a passed step", () => {
    expect(xml).toContain('<error message="unresolved variable {{natsUrl}}" type="error">');
    expect(xml).toContain('<skipped message="the run was stopped"/>');
    expect(xml.match(/<failure /g)).toHaveLength(1);
  });

  it("puts the outcome and the frames with direction and channel in system-out", () => {
    const out = /<testcase name="list tools"[\s\S]*?<system-out>([\s\S]*?)<\/system-out>/.exec(xml)?.[1] ?? "";
    expect(out).toContain("outcome: result: 13 tools");
    expect(out).toContain("captured: cursor=abc");
    expect(out).toContain('+0ms sent POST /mcp: {"jsonrpc":"2.0","id":1,"method":"tools/list"}');
    expect(out).toContain("+12ms received SSE message:");
  });

  it("keeps hostile frame text well-formed: escaped markup, visible control characters, emoji kept", () => {
    const forbidden = [...xml].filter((ch) => {
      const c = ch.codePointAt(0)!;
      return (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0xfffe || c === 0xffff;
    });
    expect(forbidden).toEqual([]);
    expect(xml.isWellFormed()).toBe(true);
    expect(xml).toContain("&lt;b&gt;&amp;amp; \"q\" ]]&gt; \\u0000 nul \\u0001 soh \\ud800 lone 😀 emoji&#13;\nend");
    expect(xml).not.toContain("]]>");
    // Every & starts a reference.
    expect(xml.match(/&(?!amp;|lt;|gt;|quot;|#\d+;)/g)).toBeNull();
  });

  it("abbreviates long frames and many frames", () => {
    const frames = Array.from({ length: 5 }, (_, i) => ({ direction: "received" as const, atMs: i, text: "x".repeat(50) }));
    const long = junitXml({ ...report, steps: [{ ...passed, frames }] }, { frames: 2, frameChars: 10 });
    expect(long).toContain(`${"x".repeat(10)}… (40 more characters)`);
    expect(long).toContain("… 3 more frames");
    expect(long.match(/\+\dms received/g)).toHaveLength(2);
  });

  it("writes one testsuite per report for several, counting them all, and omits a timestamp that is no date", () => {
    const two = junitXml([report, { ...report, collection: "other", startedAt: "not a date", steps: [passed] }]);
    expect(two.match(/<testsuite /g)).toHaveLength(2);
    expect(attr(two, "testsuites", "name")).toBe("patchbay");
    expect(attr(two, "testsuites", "tests")).toBe("5");
    expect(two).toMatch(/<testsuite name="other" tests="1" failures="0" errors="0" skipped="0" time="1.235" id="1">/);
  });

  it("names a step or collection that has no name, so every testcase has one", () => {
    const unnamed = junitXml({ ...report, collection: "", steps: [{ ...passed, name: "" }] });
    expect(unnamed).toContain('<testsuite name="collection" ');
    expect(unnamed).toContain('<testcase name="step 1" ');
  });

  it("counts from the steps, not from totals that disagree", () => {
    const lying = junitXml({ ...report, totals: { steps: 9, passed: 9, failed: 0, errors: 0, skipped: 0 } });
    expect(attr(lying, "testsuites", "tests")).toBe("4");
    expect(attr(lying, "testsuites", "failures")).toBe("1");
  });
});

describe("XML text helpers", () => {
  it("escape text and attributes and drop nothing but what XML forbids", () => {
    expect(xmlText("a<b>&c")).toBe("a&lt;b&gt;&amp;c");
    expect(xmlAttr('"\t\n\r')).toBe("&quot;&#9;&#10;&#13;");
    expect(xmlSafe("\u0000\u0008\t\n\r\u0085\ufffe\uffff\udc00x😀")).toBe("\\u0000\\u0008\t\n\r\u0085\\ufffe\\uffff\\udc00x😀");
  });
});
