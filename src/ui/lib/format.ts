const grouped = new Intl.NumberFormat("en-US");
const oneDecimal = new Intl.NumberFormat("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** An integer count with thousands separators: 100000 → "100,000". */
export function formatCount(n: number): string {
  return grouped.format(n);
}

const UNITS = ["KiB", "MiB", "GiB"] as const;

/** A byte size in binary units: "512 B", "1.5 KiB", "5.0 MiB". */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${UNITS[unit]}`;
}

/** Milliseconds at 0.1 ms resolution, grouped: 12345.67 → "12,345.7". */
export function formatMs(ms: number): string {
  // Collapse "-0.0" (tiny negative rounding noise) to "0.0".
  const rounded = Math.round(ms * 10) / 10;
  return oneDecimal.format(rounded === 0 ? 0 : rounded);
}

/** A round-trip time cell: "3.2 ms", or empty when there is none. */
export function formatRtt(ms: number | undefined): string {
  return ms === undefined ? "" : `${formatMs(ms)} ms`;
}

/** Wall time as unambiguous UTC ISO 8601, for tooltips and exports. */
export function formatWallTime(epochMs: number): string {
  const d = new Date(epochMs);
  return Number.isNaN(d.getTime()) ? "invalid time" : d.toISOString();
}

const two = (n: number) => String(n).padStart(2, "0");

/** Wall time as the local clock reads it, to the millisecond: "14:03:27.512". */
export function formatClockTime(epochMs: number): string {
  const d = new Date(epochMs);
  if (Number.isNaN(d.getTime())) return "invalid time";
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, "0")}`;
}
