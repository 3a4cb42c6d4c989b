/**
 * Two texts side by side, line against line, with the differences marked: a longest common
 * subsequence of lines, then runs of removed and added lines paired up as changed rows.
 */

export type DiffKind = "same" | "changed" | "left" | "right";

export interface DiffRow {
  readonly kind: DiffKind;
  /** Absent on the side that has no such line. */
  readonly left?: string;
  readonly right?: string;
}

/** Past this many cells (lines × lines) the table is not built; rows pair up by position instead. */
const MAX_CELLS = 4_000_000;

export function sideBySide(leftText: string, rightText: string): DiffRow[] {
  const a = leftText.split("\n");
  const b = rightText.split("\n");
  if (a.length * b.length > MAX_CELLS) return byPosition(a, b);
  const n = a.length;
  const m = b.length;
  // lcs[i][j]: the common length of a[i..] and b[j..].
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    const row = lcs[i]!;
    const next = lcs[i + 1]!;
    for (let j = m - 1; j >= 0; j--) row[j] = a[i] === b[j] ? next[j + 1]! + 1 : Math.max(next[j]!, row[j + 1]!);
  }
  const rows: DiffRow[] = [];
  let gone: string[] = [];
  let added: string[] = [];
  const flush = () => {
    const pairs = Math.max(gone.length, added.length);
    for (let k = 0; k < pairs; k++) {
      const l = gone[k];
      const r = added[k];
      rows.push(l !== undefined && r !== undefined ? { kind: "changed", left: l, right: r } : l !== undefined ? { kind: "left", left: l } : { kind: "right", right: r! });
    }
    gone = [];
    added = [];
  };
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      flush();
      rows.push({ kind: "same", left: a[i]!, right: b[j]! });
      i++;
      j++;
    } else if (j >= m || (i < n && lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) gone.push(a[i++]!);
    else added.push(b[j++]!);
  }
  flush();
  return rows;
}

function byPosition(a: readonly string[], b: readonly string[]): DiffRow[] {
  return Array.from({ length: Math.max(a.length, b.length) }, (_, k) => {
    const l = a[k];
    const r = b[k];
    if (l !== undefined && r !== undefined) return { kind: l === r ? "same" : "changed", left: l, right: r };
    return l !== undefined ? { kind: "left", left: l } : { kind: "right", right: r! };
  });
}

/** How many rows differ. */
export function differences(rows: readonly DiffRow[]): number {
  return rows.filter((r) => r.kind !== "same").length;
}
