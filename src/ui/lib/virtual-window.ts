/**
 * Fixed-row-height virtualization math. Browsers cap an element's height (Chrome near 33.5M px,
 * Firefox near 17.9M px), so past `maxHeight` the scrollbar is compressed: physical scroll
 * positions map linearly onto virtual ones and rendered rows are offset to match.
 */
export interface WindowQuery {
  readonly scrollTop: number;
  readonly viewportHeight: number;
  readonly rowHeight: number;
  readonly count: number;
  /** Extra rows rendered above and below the viewport. */
  readonly overscan: number;
  /** Largest spacer height to use; defaults to DEFAULT_MAX_HEIGHT. */
  readonly maxHeight?: number;
}

export interface WindowSlice {
  /** First rendered row (inclusive). */
  readonly start: number;
  /** Past the last rendered row (exclusive). */
  readonly end: number;
  /** Where the first rendered row sits inside the spacer, in px. */
  readonly offset: number;
  /** Height of the scroll spacer in px. */
  readonly height: number;
}

export const DEFAULT_MAX_HEIGHT = 8_000_000;

interface Geometry {
  readonly height: number;
  /** Virtual px per physical px of scroll. */
  readonly ratio: number;
  readonly maxScroll: number;
}

function geometry(q: Pick<WindowQuery, "viewportHeight" | "rowHeight" | "count" | "maxHeight">): Geometry {
  const virtual = Math.max(0, q.count) * q.rowHeight;
  const height = Math.min(virtual, q.maxHeight ?? DEFAULT_MAX_HEIGHT);
  const viewport = Math.max(0, q.viewportHeight);
  const ratio = height < virtual && height > viewport ? (virtual - viewport) / (height - viewport) : 1;
  return { height, ratio, maxScroll: Math.max(0, height - viewport) };
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** Which rows to render for a scroll position, and where to put them. */
export function visibleWindow(q: WindowQuery): WindowSlice {
  if (q.count <= 0 || q.rowHeight <= 0) return { start: 0, end: 0, offset: 0, height: 0 };
  const g = geometry(q);
  const scrollTop = clamp(q.scrollTop, 0, g.maxScroll);
  const virtualTop = scrollTop * g.ratio;
  const first = Math.floor(virtualTop / q.rowHeight);
  const lastExclusive = Math.ceil((virtualTop + Math.max(0, q.viewportHeight)) / q.rowHeight);
  const start = clamp(first - q.overscan, 0, q.count);
  const end = clamp(Math.max(lastExclusive, first + 1) + q.overscan, start, q.count);
  return { start, end, offset: scrollTop + (start * q.rowHeight - virtualTop), height: g.height };
}

/** The scrollTop that brings row `index` fully into view, moving as little as possible. */
export function revealScrollTop(
  index: number,
  q: Pick<WindowQuery, "scrollTop" | "viewportHeight" | "rowHeight" | "count" | "maxHeight">,
): number {
  const g = geometry(q);
  const virtualTop = clamp(q.scrollTop, 0, g.maxScroll) * g.ratio;
  const rowTop = index * q.rowHeight;
  const rowBottom = rowTop + q.rowHeight;
  // Rounding towards the row keeps it visible even when one physical px spans several virtual px.
  if (rowTop < virtualTop) return clamp(Math.floor(rowTop / g.ratio), 0, g.maxScroll);
  if (rowBottom > virtualTop + q.viewportHeight) {
    return clamp(Math.ceil((rowBottom - q.viewportHeight) / g.ratio), 0, g.maxScroll);
  }
  return q.scrollTop;
}

/** Rows per PageUp/PageDown: one viewport less a row of context, at least one. */
export function pageRows(viewportHeight: number, rowHeight: number): number {
  return rowHeight > 0 ? Math.max(1, Math.floor(viewportHeight / rowHeight) - 1) : 1;
}

/** Row to select after a key press in a vertical list (current -1: none yet), or null to ignore. */
export function nextRow(key: string, current: number, count: number, page: number): number | null {
  if (count <= 0) return null;
  const last = count - 1;
  current = Math.min(current, last);
  switch (key) {
    case "ArrowDown":
      return current < 0 ? 0 : Math.min(last, current + 1);
    case "ArrowUp":
      return current < 0 ? 0 : Math.max(0, current - 1);
    case "PageDown":
      return Math.min(last, Math.max(0, current) + page);
    case "PageUp":
      return Math.max(0, current - page);
    case "Home":
      return 0;
    case "End":
      return last;
    default:
      return null;
  }
}
