import type { Candidate } from "./types.ts";

/** How candidates rank against each other: the thresholds, and the orders families' lists merge in. */

/** A valid candidate wins over the top guess only when its score is this close to the top. */
export const SCORE_MARGIN = 0.25;
/** Below this, an unconfirmed guess is "unrecognised" rather than "invalid". */
export const RECOGNITION_FLOOR = 0.3;
/**
 * A score this high means a discriminator matched exactly (a method, a protocol id, the id of a
 * request seen earlier). Another family's guess cannot displace such a match unless it is just
 * as decisive: a valid shape guess from elsewhere must not hide an invalid answer to a known request.
 */
export const DECISIVE_SCORE = 0.95;
/** Scores are rounded to thousandths; comparisons at a threshold allow for that. */
export const EPSILON = 1e-9;

/** A catch-all kind is the pick only when it leads; below a specific kind it explains nothing. */
export function catchAllBelow(top: Candidate, candidate: Candidate): boolean {
  return candidate.kind.generic === true && candidate !== top && top.kind.generic !== true;
}

/** Another family's guess, below decisive, cannot displace a decisive match. */
export function outranked(top: Candidate, candidate: Candidate): boolean {
  return candidate.pack.family !== top.pack.family && candidate.score < DECISIVE_SCORE - EPSILON;
}

const ORDERS = new Map<string | undefined, (a: Candidate, b: Candidate) => number>();

/** Best first; equal scores lean towards the family of the previous message. One comparator per family, made once. */
export function byScoreLeaningTo(last: string | undefined): (a: Candidate, b: Candidate) => number {
  let order = ORDERS.get(last);
  if (!order) ORDERS.set(last, (order = (a, b) => b.score - a.score || (a.pack.family === last ? -1 : b.pack.family === last ? 1 : 0)));
  return order;
}

/** Two families' lists merged, kept by list identity (families reuse read-only lists; sorting allocates); weak keys let one-off lists go. */
const MERGES = new Map<string | undefined, WeakMap<readonly Candidate[], WeakMap<readonly Candidate[], readonly Candidate[]>>>();
export function merged(first: readonly Candidate[], second: readonly Candidate[], last: string | undefined): readonly Candidate[] {
  let byFirst = MERGES.get(last);
  if (!byFirst) MERGES.set(last, (byFirst = new WeakMap()));
  let bySecond = byFirst.get(first);
  if (!bySecond) byFirst.set(first, (bySecond = new WeakMap()));
  let list = bySecond.get(second);
  if (!list) bySecond.set(second, (list = first.concat(second).sort(byScoreLeaningTo(last))));
  return list;
}

export function bestFirst(candidates: readonly Candidate[]): boolean {
  for (let i = 1; i < candidates.length; i++) if (candidates[i]!.score > candidates[i - 1]!.score) return false;
  return true;
}
