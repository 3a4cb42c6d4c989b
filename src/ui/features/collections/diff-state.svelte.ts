import {
  DIFF_INPUT_MAX_CHARS,
  DIFF_KIND_WORDS,
  DiffInputError,
  detectDiffKind,
  diffByKind,
  diffIsEmpty,
  readDiffInput,
  undetectedMessage,
  type DiffKind,
  type DiffOutcome,
} from "../../../core/harness/diff.ts";

export type DiffSideName = "before" | "after";

/** One side's text as read: nothing yet, unreadable, or a value and the kind it was detected as. */
export type SideReading =
  | { readonly kind: "empty" }
  | { readonly kind: "error"; readonly message: string }
  | { readonly kind: "read"; readonly value: unknown; readonly detected: DiffKind | null; readonly problems: readonly string[] };

export function readSide(text: string): SideReading {
  if (text.trim() === "") return { kind: "empty" };
  try {
    const { value, problems } = readDiffInput(text);
    return { kind: "read", value, detected: detectDiffKind(value), problems };
  } catch (err) {
    if (err instanceof DiffInputError) return { kind: "error", message: err.message };
    throw err;
  }
}

/** What a side says under its input: what was detected, or why nothing was. */
export function sideStatus(reading: SideReading, side: DiffSideName): { readonly tone: "muted" | "ok" | "bad"; readonly text: string } {
  if (reading.kind === "empty") return { tone: "muted", text: "Paste or choose a run report, a Traffic capture (JSONL), a tools/list result or an agent card." };
  if (reading.kind === "error") return { tone: "bad", text: `${side}: ${reading.message}` };
  if (reading.detected === null) return { tone: "bad", text: undetectedMessage(reading.value, side) };
  return { tone: "ok", text: `Detected ${DIFF_KIND_WORDS[reading.detected]}${reading.problems.length > 0 ? ` (${reading.problems.length} line${reading.problems.length === 1 ? "" : "s"} not read)` : ""}` };
}

/** The comparison: waiting for both sides, refused (kinds differ, a diff refused a side), or done. */
export type DiffResult =
  | { readonly kind: "waiting" }
  | { readonly kind: "error"; readonly message: string }
  | { readonly kind: "done"; readonly outcome: DiffOutcome; readonly empty: boolean };

export function compareSides(before: SideReading, after: SideReading): DiffResult {
  if (before.kind !== "read" || after.kind !== "read" || before.detected === null || after.detected === null) return { kind: "waiting" };
  try {
    const outcome = diffByKind(before.value, after.value);
    return { kind: "done", outcome, empty: diffIsEmpty(outcome) };
  } catch (err) {
    if (err instanceof DiffInputError) return { kind: "error", message: err.message };
    throw err;
  }
}

/** One input of the Diff view: pasted text, or a file's (kept out of the text area). */
export class DiffSideState {
  readonly side: DiffSideName;
  text = $state("");
  /** The file the text came from; null for pasted text. */
  fileName = $state<string | null>(null);
  error = $state<string | null>(null);

  constructor(side: DiffSideName) {
    this.side = side;
  }

  readonly reading: SideReading = $derived(readSide(this.text));

  /** What the side says under its input. */
  get status(): { readonly tone: "muted" | "ok" | "bad"; readonly text: string } {
    return this.error !== null ? { tone: "bad", text: this.error } : sideStatus(this.reading, this.side);
  }

  paste(text: string): void {
    this.text = text;
    this.fileName = null;
    this.error = null;
  }

  async load(file: File): Promise<void> {
    if (file.size > DIFF_INPUT_MAX_CHARS) {
      this.error = `${this.side}: ${file.name} is ${file.size} bytes; at most ${DIFF_INPUT_MAX_CHARS} are read`;
      return;
    }
    try {
      const text = await file.text();
      this.text = text;
      this.fileName = file.name;
      this.error = null;
    } catch (err) {
      this.error = `${this.side}: could not read ${file.name}: ${(err as Error).message}`;
    }
  }

  clear(): void {
    this.paste("");
  }
}

/** The Diff view: two inputs, each detected, and their comparison by the kind they share. */
export class DiffState {
  readonly before = new DiffSideState("before");
  readonly after = new DiffSideState("after");

  readonly result: DiffResult = $derived(compareSides(this.before.reading, this.after.reading));

  swap(): void {
    const [text, fileName] = [this.before.text, this.before.fileName];
    this.before.text = this.after.text;
    this.before.fileName = this.after.fileName;
    this.after.text = text;
    this.after.fileName = fileName;
    this.before.error = this.after.error = null;
  }
}
