/** Marked when a new tools list is set in state; the list measures from here to its paint. */
export const TOOLS_SET_MARK = "patchbay:mcp-tools-set";
/** The performance measure of one tools list render, read by the stress spec and the benchmark. */
export const TOOLS_RENDER_MEASURE = "patchbay:mcp-tools-render";

/**
 * Measures from `startMark` to the next paint, once per mark: the frame callback runs before the
 * browser paints and the task it queues runs right after.
 */
export function measureToPaint(startMark: string, measure: string): void {
  if (typeof performance === "undefined" || performance.getEntriesByName(startMark, "mark").length === 0) return;
  requestAnimationFrame(() =>
    setTimeout(() => {
      if (performance.getEntriesByName(startMark, "mark").length === 0) return;
      performance.measure(measure, startMark);
      performance.clearMarks(startMark);
    }, 0),
  );
}
