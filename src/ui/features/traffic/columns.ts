import { formatMs, formatRtt } from "../../lib/format.ts";
import type { WireEntry } from "../../../core/wire/index.ts";

/** What the Method column shows: the frame's own method or protocol, or the one its request had. */
export function methodText(e: WireEntry): string {
  const own = e.decoded.method ?? e.decoded.protocolId;
  if (own !== undefined) return own;
  return e.decoded.requestMethod !== undefined ? `↩ ${e.decoded.requestMethod}` : "";
}

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

/**
 * The Traffic list's columns sized to what they hold, in `ch` of the list's monospace font:
 * clock time, offset, direction, channel, target (the rest), method, status, size, latency.
 * One pass over the entries reading lengths only.
 */
export function trafficColumns(entries: readonly WireEntry[], origin: number): string {
  let method = 6;
  let channel = 7;
  let rtt = 0;
  let lastTs = origin;
  for (const e of entries) {
    const m = e.decoded.method ?? e.decoded.protocolId;
    const len = m !== undefined ? m.length : e.decoded.requestMethod !== undefined ? e.decoded.requestMethod.length + 2 : 0;
    if (len > method) method = len;
    if (e.channel.length > channel) channel = e.channel.length;
    if (e.rttMs !== undefined && e.rttMs > rtt) rtt = e.rttMs;
    if (e.ts > lastTs) lastTs = e.ts;
  }
  const offset = formatMs(lastTs - origin).length + 1;
  const latency = rtt > 0 ? Math.max(3, formatRtt(rtt).length) : 3;
  return [
    "12ch",
    `${clamp(offset, 4, 14)}ch`,
    "2ch",
    `${channel}ch`,
    "minmax(16ch,1fr)",
    `${clamp(method, 6, 48)}ch`,
    "6ch",
    "10ch",
    `${clamp(latency, 3, 14)}ch`,
  ].join(" ");
}
