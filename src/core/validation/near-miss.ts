/**
 * "Did you mean": the names a mistyped method is a few edits away from. A method one letter off is
 * the commonest mistake in a hand-written message, and the one a schema's `const` explains worst.
 */

/** Farther than this, a name is a different name, not a typo. */
export const MAX_EDITS = 2;

/**
 * Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`, or `limit + 1` once it
 * is sure to exceed `limit`: names differ at a glance far more often than they nearly match.
 */
export function editDistance(a: string, b: string, limit = MAX_EDITS): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous: number[] = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowBest = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      current.push(d);
      if (d < rowBest) rowBest = d;
    }
    if (rowBest > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return Math.min(previous[b.length]!, limit + 1);
}

/** One near name and how far it is. */
export interface NearName {
  readonly name: string;
  readonly edits: number;
}

/**
 * The names closest to `name`, nearest first (ties in the order given), none farther than
 * `MAX_EDITS` nor than a third of the name's length, so short names do not match everything.
 */
export function nearestNames(name: string, names: Iterable<string>): NearName[] {
  const limit = Math.min(MAX_EDITS, Math.max(1, Math.floor(name.length / 3)));
  const found: NearName[] = [];
  for (const candidate of names) {
    if (candidate === name) continue;
    const edits = editDistance(name, candidate, limit);
    if (edits <= limit) found.push({ name: candidate, edits });
  }
  return found.sort((x, y) => x.edits - y.edits);
}

/** `"a"`, `"a" or "b"`, `"a", "b" or "c"`: the suggestion as a person would say it. */
export function quotedChoice(names: readonly string[]): string {
  const quoted = names.map((n) => `"${n}"`);
  if (quoted.length <= 1) return quoted.join("");
  return `${quoted.slice(0, -1).join(", ")} or ${quoted[quoted.length - 1]!}`;
}

/**
 * Whether `method` is one the user declared a deliberate extension: an exact name, or a prefix
 * ending in `*` (`acme/*`).
 */
export function isAllowedMethod(method: string, allowed: readonly string[] | undefined): boolean {
  if (!allowed) return false;
  for (const pattern of allowed) {
    if (pattern === method) return true;
    if (pattern.endsWith("*") && method.startsWith(pattern.slice(0, -1))) return true;
  }
  return false;
}
