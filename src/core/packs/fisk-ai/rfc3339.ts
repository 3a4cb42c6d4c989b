/**
 * Go's time.Time decoder takes only RFC 3339 with in-range fields: YYYY-MM-DDTHH:MM:SS, an
 * optional fraction, then Z or ±HH:MM. This runs on every fisk-ai message, so it reads character
 * codes in place instead of matching a regular expression and converting its captures.
 */

/** The value of `count` ASCII digits at `at`, or -1 when any of them is not a digit. */
function digits(text: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const d = text.charCodeAt(i) - 48;
    if (!(d >= 0 && d <= 9)) return -1;
    value = value * 10 + d;
  }
  return value;
}

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

const DASH = 45;
const PLUS = 43;
const COLON = 58;
const DOT = 46;
const T = 84;
const Z = 90;

/** The offset just past the zone (Z or ±HH:MM with HH < 24 and MM < 60) at `at`, or -1. */
function zoneEnd(text: string, at: number): number {
  const c = text.charCodeAt(at);
  if (c === Z) return at + 1;
  if (c !== PLUS && c !== DASH) return -1;
  const hours = digits(text, at + 1, 2);
  const minutes = digits(text, at + 4, 2);
  if (hours < 0 || minutes < 0 || text.charCodeAt(at + 3) !== COLON) return -1;
  return hours < 24 && minutes < 60 ? at + 6 : -1;
}

export function isRfc3339(text: string): boolean {
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return false;
  if (text.charCodeAt(4) !== DASH || text.charCodeAt(7) !== DASH || text.charCodeAt(10) !== T) return false;
  if (text.charCodeAt(13) !== COLON || text.charCodeAt(16) !== COLON) return false;
  let at = 19;
  if (text.charCodeAt(at) === DOT) {
    const start = ++at;
    while (digits(text, at, 1) >= 0) at++;
    if (at === start) return false;
  }
  if (zoneEnd(text, at) !== text.length) return false;
  if (month < 1 || month > 12 || day < 1 || (day > 28 && day > daysIn(year, month))) return false;
  return hour <= 23 && minute <= 59 && second <= 59;
}
