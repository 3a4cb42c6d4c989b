// The split between the verdict list and the open message: the detail's share of the workbench's
// height, in percent. The list takes whatever is left, so it grows with the window.

export const DETAIL_SHARE_DEFAULT = 40;
export const DETAIL_SHARE_MIN = 20;
export const DETAIL_SHARE_MAX = 80;
const KEY_STEP = 5;

export function clampShare(share: number): number {
  return Math.min(DETAIL_SHARE_MAX, Math.max(DETAIL_SHARE_MIN, share));
}

/** The share after dragging the separator `dy` pixels down in a workbench `height` pixels tall. */
export function shareAfterDrag(start: number, dy: number, height: number): number {
  return height > 0 ? clampShare(start - (dy / height) * 100) : start;
}

/** The share after a key on the separator, or null for keys it ignores. Up grows the detail. */
export function shareAfterKey(key: string, share: number): number | null {
  switch (key) {
    case "ArrowUp":
      return clampShare(share + KEY_STEP);
    case "ArrowDown":
      return clampShare(share - KEY_STEP);
    case "Home":
      return DETAIL_SHARE_MIN;
    case "End":
      return DETAIL_SHARE_MAX;
    default:
      return null;
  }
}
