/**
 * Go's time.Time on the wire: RFC 3339 with nanoseconds, trailing zeros (and a bare dot)
 * trimmed, `Z` for a zero offset. fisk-ai stamps UTC; a decoded time keeps its own offset, and
 * Go re-marshals it in that offset.
 */

const NANOS_PER_SECOND = 1_000_000_000n;
const SECONDS_PER_DAY = 86_400n;

/** Days since 1970-01-01 of a civil date (proleptic Gregorian). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

const pad = (n: number, width: number): string => String(n).padStart(width, "0");

function toNanos(at: bigint | { ms: number; nanos?: number }): bigint {
  if (typeof at === "bigint") return at;
  if (!Number.isFinite(at.ms)) throw new RangeError(`${at.ms} is not a time`);
  const whole = Math.floor(at.ms);
  const fraction = Math.round((at.ms - whole) * 1_000_000);
  return BigInt(whole) * 1_000_000n + BigInt(fraction) + BigInt(Math.trunc(at.nanos ?? 0));
}

/** RFC 3339 in the given offset (seconds east of UTC), as Go's RFC3339Nano writes it. */
function format(epochNanos: bigint, offsetSeconds: number): string {
  const local = epochNanos + BigInt(offsetSeconds) * NANOS_PER_SECOND;
  let seconds = local / NANOS_PER_SECOND;
  let nanos = local % NANOS_PER_SECOND;
  if (nanos < 0n) {
    nanos += NANOS_PER_SECOND;
    seconds -= 1n;
  }
  let days = seconds / SECONDS_PER_DAY;
  let daySeconds = seconds % SECONDS_PER_DAY;
  if (daySeconds < 0n) {
    daySeconds += SECONDS_PER_DAY;
    days -= 1n;
  }
  const { year, month, day } = civilFromDays(Number(days));
  // Go refuses to marshal a year outside 0..9999.
  if (year < 0 || year > 9999) throw new RangeError(`year ${year} is outside RFC 3339`);
  const s = Number(daySeconds);
  let text = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(Math.floor(s / 3600), 2)}:${pad(Math.floor(s / 60) % 60, 2)}:${pad(s % 60, 2)}`;
  if (nanos > 0n) text += `.${pad(Number(nanos), 9).replace(/0+$/, "")}`;
  if (offsetSeconds === 0) return `${text}Z`;
  const abs = Math.abs(offsetSeconds);
  return `${text}${offsetSeconds < 0 ? "-" : "+"}${pad(Math.floor(abs / 3600), 2)}:${pad(Math.floor(abs / 60) % 60, 2)}`;
}

/**
 * A `time` field value in UTC: `2026-08-21T09:14:05.00311728Z`; whole seconds have no fraction.
 * Takes nanoseconds since the Unix epoch, or milliseconds (fractions kept) plus extra nanoseconds.
 */
export function formatGoTime(at: bigint | { ms: number; nanos?: number }): string {
  return format(toNanos(at), 0);
}

export interface GoTime {
  /** Nanoseconds since the Unix epoch. */
  readonly epochNanos: bigint;
  /** The written offset, seconds east of UTC (0 for `Z`). */
  readonly offsetSeconds: number;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:(Z)|([+-])(\d{2}):(\d{2}))$/;

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * Parses an RFC 3339 time the way Go's decoder accepts it, keeping every nanosecond (digits past
 * the ninth are dropped, as Go drops them). Null for anything Go would refuse.
 */
export function parseGoTime(text: string): GoTime | null {
  const m = RFC3339.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  let offsetSeconds = 0;
  if (m[9] !== undefined) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return null;
    offsetSeconds = (m[9] === "-" ? -1 : 1) * (oh * 3600 + om * 60);
  }
  const fraction = (m[7] ?? "").slice(0, 9).padEnd(9, "0");
  const seconds = BigInt(daysFromCivil(year, month, day)) * SECONDS_PER_DAY + BigInt(hour * 3600 + minute * 60 + second);
  const epochNanos = (seconds - BigInt(offsetSeconds)) * NANOS_PER_SECOND + BigInt(fraction);
  return { epochNanos, offsetSeconds };
}

/** A time string as Go would write it back after decoding it, or null if Go could not decode it. */
export function normalizeGoTime(text: string): string | null {
  const parsed = parseGoTime(text);
  return parsed ? format(parsed.epochNanos, parsed.offsetSeconds) : null;
}
