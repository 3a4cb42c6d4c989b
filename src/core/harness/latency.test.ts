import { describe, expect, it } from "vitest";
import { manualClock } from "../env/index.ts";
import { WireLog } from "../wire/wire-log.ts";
import { latencyStats, runSpans, trafficLatencies, trafficSpans } from "./latency.ts";
import type { RunReport, StepReport } from "./run-types.ts";

const enc = new TextEncoder();

describe("latencyStats", () => {
  it("gives nearest-rank percentiles and 1-2-5 bins spanning the samples", () => {
    const samples = Array.from({ length: 100 }, (_, i) => i + 1);
    const s = latencyStats(samples)!;
    expect([s.count, s.min, s.p50, s.p90, s.p99, s.max, s.mean]).toEqual([100, 1, 50, 90, 99, 100, 50.5]);
    expect(s.bins[0]).toEqual({ fromMs: 1, toMs: 2, count: 1 });
    expect(s.bins.at(-1)).toEqual({ fromMs: 100, toMs: 200, count: 1 });
    expect(s.bins.reduce((a, b) => a + b.count, 0)).toBe(100);
  });

  it("ignores negative and non-finite samples and answers null for none", () => {
    expect(latencyStats([])).toBeNull();
    expect(latencyStats([-1, Number.NaN, Infinity])).toBeNull();
    expect(latencyStats([0, 0.05])).toMatchObject({ count: 2, bins: [{ fromMs: 0, toMs: 0.1, count: 2 }] });
  });
});

describe("latency from the Traffic log", () => {
  it("pairs each request with its first reply by channel and correlation id, per method", () => {
    const clock = manualClock(0, 0);
    const log = new WireLog(clock, 100);
    const out = (id: string, method: string) => log.record({ channel: "mcp", direction: "out", target: "http://x/mcp", correlationId: id, bytes: enc.encode(JSON.stringify({ jsonrpc: "2.0", id, method })) });
    const back = (id: string, body: unknown) => log.record({ channel: "mcp", direction: "in", target: "http://x/mcp", correlationId: id, bytes: enc.encode(JSON.stringify({ jsonrpc: "2.0", id, ...(body as object) })) });
    out("1", "tools/list");
    clock.advance(10);
    out("2", "tools/call");
    clock.advance(5);
    back("1", { result: {} });
    clock.advance(20);
    back("2", { error: { code: -32602, message: "bad" } });
    back("2", { result: {} });
    out("3", "tools/call");
    clock.advance(3);
    const byMethod = trafficLatencies(log.entries());
    expect(Object.fromEntries(byMethod)).toEqual({ "mcp tools/list": [15], "mcp tools/call": [25] });
    expect(trafficSpans(log.entries())).toEqual([
      { label: "mcp tools/list", startMs: 0, durationMs: 15, tone: "ok" },
      { label: "mcp tools/call", startMs: 10, durationMs: 25, tone: "bad" },
      { label: "mcp tools/call", startMs: 35, durationMs: 0, tone: "open" },
    ]);
  });

  it("uses a reply's measured rtt and names NATS requests by protocol id or subject", () => {
    const log = new WireLog(manualClock(0, 0), 10);
    log.record({ channel: "nats", direction: "out", target: "svc.echo", correlationId: "_INBOX.1", bytes: enc.encode("hi") });
    log.record({ channel: "nats", direction: "in", target: "_INBOX.1", correlationId: "_INBOX.1", rttMs: 7.5, bytes: enc.encode("hi") });
    expect(Object.fromEntries(trafficLatencies(log.entries()))).toEqual({ "nats svc.echo": [7.5] });
  });
});

describe("run spans", () => {
  it("lays the run's steps end to end and leaves skipped ones out", () => {
    const step = (name: string, status: StepReport["status"], latencyMs?: number): StepReport => ({ index: 0, name, protocol: "mcp", target: "t", status, assertions: [], frames: [], captured: {}, ...(latencyMs !== undefined ? { latencyMs } : {}) });
    const report = { steps: [step("a", "passed", 10), step("b", "failed", 5), step("c", "skipped")] } as unknown as RunReport;
    expect(runSpans(report)).toEqual([
      { label: "a", startMs: 0, durationMs: 10, tone: "ok" },
      { label: "b", startMs: 10, durationMs: 5, tone: "bad" },
    ]);
  });
});
