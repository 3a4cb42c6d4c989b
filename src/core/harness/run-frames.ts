/**
 * What a report keeps of a step's words: secrets scrubbed from every text, and at most a bounded
 * amount of frame text per step, so a long run over a chatty peer stays small in memory.
 */
import type { StepOutcome } from "./collection-types.ts";
import type { AssertionResult, StepFrame } from "./run-types.ts";

/** Characters of frame text a step keeps unless the run says otherwise. */
export const DEFAULT_FRAME_TEXT_LIMIT = 256 * 1024;

export type Scrub = (text: string) => string;

function scrubFrame(frame: StepFrame, scrub: Scrub, text: string): StepFrame {
  const { validity } = frame;
  return {
    ...frame,
    text,
    ...(frame.channel !== undefined ? { channel: scrub(frame.channel) } : {}),
    ...(validity
      ? {
          validity: {
            ...validity,
            ...(validity.kind !== undefined ? { kind: scrub(validity.kind) } : {}),
            problems: validity.problems.map(scrub),
          },
        }
      : {}),
  };
}

/**
 * The frames scrubbed, in order, while their text fits in `limit` characters; the first frame
 * that does not fit and every one after it become one marker frame saying what was dropped.
 */
export function keptFrames(frames: readonly StepFrame[], scrub: Scrub, limit: number): StepFrame[] {
  const out: StepFrame[] = [];
  let used = 0;
  for (let i = 0; i < frames.length; i++) {
    const frame = frames[i]!;
    const text = scrub(frame.text);
    if (used + text.length <= limit) {
      used += text.length;
      out.push(scrubFrame(frame, scrub, text));
      continue;
    }
    let chars = 0;
    for (let j = i; j < frames.length; j++) chars += frames[j]!.text.length;
    const n = frames.length - i;
    out.push({
      direction: frame.direction,
      atMs: frame.atMs,
      channel: "patchbay",
      text: `${n} more frame${n === 1 ? "" : "s"} (${chars.toLocaleString("en-US")} characters) not kept: a step keeps at most ${limit.toLocaleString("en-US")} characters of frames`,
    });
    break;
  }
  return out;
}

export function scrubOutcome(outcome: StepOutcome, scrub: Scrub): StepOutcome {
  return { ...outcome, message: scrub(outcome.message) };
}

export function scrubResults(results: readonly AssertionResult[], scrub: Scrub): AssertionResult[] {
  return results.map((r) => ({ ...r, message: scrub(r.message) }));
}
