import { describe, expect, it } from "vitest";
import { isRfc3339 } from "./rfc3339.ts";

/** The definition the reader must agree with: the RFC 3339 shape, then the fields' ranges. */
const SHAPE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-](\d{2}):(\d{2}))$/;

function reference(text: string): boolean {
  const m = SHAPE.exec(text);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  if (month < 1 || month > 12 || day < 1 || day > days) return false;
  if (hour > 23 || minute > 59 || second > 59) return false;
  return m[7] === undefined || (Number(m[7]) < 24 && Number(m[8]) < 60);
}

const SEEDS = [
  "2026-08-21T09:14:05.00311728Z",
  "2026-08-21T09:14:05Z",
  "2026-08-21T11:14:05.5+02:00",
  "2024-02-29T00:00:00-23:59",
  "1900-02-29T23:59:59Z",
  "2000-02-29T12:00:00.0Z",
  "2026-04-31T00:00:00Z",
];
const ALPHABET = "0123456789-:.TZtz+ 9";

/** A deterministic stream of single-character edits of the seeds: replaced, dropped and doubled. */
function* variants(): Generator<string> {
  let state = 7;
  const next = (n: number): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
  for (const seed of SEEDS) {
    yield seed;
    for (let k = 0; k < 400; k++) {
      const at = next(seed.length);
      const c = ALPHABET[next(ALPHABET.length)]!;
      const op = next(3);
      yield op === 0 ? seed.slice(0, at) + c + seed.slice(at + 1) : op === 1 ? seed.slice(0, at) + seed.slice(at + 1) : seed.slice(0, at) + c + seed.slice(at);
    }
  }
}

describe("isRfc3339 reads exactly what the RFC 3339 pattern and field ranges accept", () => {
  it("agrees on thousands of edited timestamps", () => {
    let accepted = 0;
    for (const text of variants()) {
      expect([text, isRfc3339(text)]).toEqual([text, reference(text)]);
      if (reference(text)) accepted++;
    }
    // Both outcomes are exercised, not just refusals.
    expect(accepted).toBeGreaterThan(100);
  });

  it("refuses the empty string, trailing text and a lone fraction dot", () => {
    for (const text of ["", "2026-08-21T09:14:05Z ", "2026-08-21T09:14:05.Z", "2026-08-21T09:14:05+0200", "２026-08-21T09:14:05Z"]) {
      expect(isRfc3339(text)).toBe(false);
    }
  });
});
