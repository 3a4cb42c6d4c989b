/**
 * Latency you can see: percentiles and a log-scale histogram per method, from the Traffic log
 * (each reply paired with its request) or from a run report (each step's latency), and the
 * spans a timeline draws.
 */
import type { WireEntry } from "../wire/wire-entry.ts";
import type { RunReport } from "./run-types.ts";

export interface LatencyBin {
  readonly fromMs: number;
  readonly toMs: number;
  readonly count: number;
}

export interface LatencyStats {
  readonly count: number;
  readonly min: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
  readonly mean: number;
  readonly bins: readonly LatencyBin[];
}

export interface LatencySpan {
  readonly label: string;
  /** Start, ms from the first span's start. */
  readonly startMs: number;
  readonly durationMs: number;
  /** "ok", "bad" (an error, a failed step) or "open" (no answer seen). */
  readonly tone: "ok" | "bad" | "open";
}

/** Bin edges in ms on a 1-2-5 scale, from 0.1 ms to 10 minutes. */
const EDGES: readonly number[] = (() => {
  const out: number[] = [0];
  for (let decade = 0.1; decade < 1_000_000; decade *= 10) for (const m of [1, 2, 5]) out.push(Math.round(decade * m * 1000) / 1000);
  return out;
})();

/** The nearest-rank percentile of sorted values. */
function rank(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Percentiles and the bins between the smallest and largest sample; null for no samples. */
export function latencyStats(samples: readonly number[]): LatencyStats | null {
  const sorted = samples.filter((s) => Number.isFinite(s) && s >= 0).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const counts = new Array<number>(EDGES.length).fill(0);
  for (const s of sorted) {
    let i = EDGES.length - 1;
    while (i > 0 && EDGES[i]! > s) i--;
    counts[i]!++;
  }
  const first = counts.findIndex((c) => c > 0);
  const last = counts.length - 1 - [...counts].reverse().findIndex((c) => c > 0);
  const bins: LatencyBin[] = [];
  for (let i = first; i <= last; i++) bins.push({ fromMs: EDGES[i]!, toMs: EDGES[i + 1] ?? Infinity, count: counts[i]! });
  return {
    count: sorted.length,
    min: sorted[0]!,
    p50: rank(sorted, 50),
    p90: rank(sorted, 90),
    p99: rank(sorted, 99),
    max: sorted[sorted.length - 1]!,
    mean: sorted.reduce((a, b) => a + b, 0) / sorted.length,
    bins,
  };
}

interface Pairing {
  readonly method: string;
  readonly startTs: number;
  endTs?: number;
  bad?: boolean;
}

/** A reply is bad when its JSON-RPC body is an error or its transport status says so. */
function isBad(entry: WireEntry): boolean {
  const json = entry.decoded.json;
  const hasError = json !== null && typeof json === "object" && !Array.isArray(json) && "error" in json;
  return hasError || (entry.status !== undefined && entry.status >= 400);
}

/**
 * Requests paired with their first reply (same channel and correlation id), in request order.
 * A reply's own rttMs wins over the difference of timestamps, as the transport measured it.
 */
function pairings(entries: readonly WireEntry[]): Pairing[] {
  const open = new Map<string, Pairing>();
  const all: Pairing[] = [];
  for (const e of entries) {
    if (e.correlationId === undefined) continue;
    const key = `${e.channel}\u0000${e.correlationId}`;
    const verb = e.decoded.method ?? e.decoded.protocolId ?? (e.channel === "nats" ? e.target : undefined);
    if (e.direction === "out" && verb !== undefined) {
      const p: Pairing = { method: `${e.channel} ${verb}`, startTs: e.ts };
      open.set(key, p);
      all.push(p);
    } else if (e.direction === "in") {
      const p = open.get(key);
      if (!p || p.endTs !== undefined) continue;
      p.endTs = e.rttMs !== undefined ? p.startTs + e.rttMs : e.ts;
      p.bad = isBad(e);
    }
  }
  return all;
}

/** Round-trip times per method ("mcp tools/call", "nats choria.fisk-ai.tool…") from the log. */
export function trafficLatencies(entries: readonly WireEntry[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const p of pairings(entries)) {
    if (p.endTs === undefined) continue;
    const list = out.get(p.method) ?? [];
    list.push(p.endTs - p.startTs);
    out.set(p.method, list);
  }
  return out;
}

/** The request/reply spans of the log, for a timeline; unanswered requests are open to the last frame. */
export function trafficSpans(entries: readonly WireEntry[], limit = 2000): LatencySpan[] {
  const all = pairings(entries);
  if (all.length === 0) return [];
  const origin = all[0]!.startTs;
  const end = entries.reduce((m, e) => Math.max(m, e.ts), origin);
  return all.slice(-limit).map((p) => ({
    label: p.method,
    startMs: p.startTs - origin,
    durationMs: (p.endTs ?? end) - p.startTs,
    tone: p.endTs === undefined ? "open" : p.bad ? "bad" : "ok",
  }));
}

/** A step's method, e.g. "mcp tools/call", "a2a send", "nats tool". */
function stepMethod(report: RunReport, index: number): string {
  const step = report.steps[index]!;
  const sent = step.frames.find((f) => f.direction === "sent");
  let method: string | undefined;
  try {
    const json = sent ? (JSON.parse(sent.text) as { method?: unknown }) : undefined;
    method = typeof json?.method === "string" ? json.method : undefined;
  } catch {
    method = undefined;
  }
  return `${step.protocol} ${method ?? step.target}`;
}

/** Step latencies per method, for a run report's histograms. */
export function runLatencies(report: RunReport): Map<string, number[]> {
  const out = new Map<string, number[]>();
  report.steps.forEach((step, i) => {
    if (step.latencyMs === undefined) return;
    const method = stepMethod(report, i);
    const list = out.get(method) ?? [];
    list.push(step.latencyMs);
    out.set(method, list);
  });
  return out;
}

/** The run's steps laid end to end, as the runner ran them one after another. */
export function runSpans(report: RunReport): LatencySpan[] {
  let at = 0;
  return report.steps.filter((s) => s.status !== "skipped").map((s) => {
    const span: LatencySpan = { label: s.name, startMs: at, durationMs: s.latencyMs ?? 0, tone: s.status === "passed" ? "ok" : "bad" };
    at += s.latencyMs ?? 0;
    return span;
  });
}
