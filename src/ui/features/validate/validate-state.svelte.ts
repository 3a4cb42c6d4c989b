import type { ReportInput } from "../../../core/validation/report.ts";
import { downloadBlob, fileTimestamp } from "../../lib/download.ts";
import { pageLifetime } from "../../lib/page-lifetime.svelte.ts";
import { ResultFor } from "../../lib/result-for.svelte.ts";
import { DETAIL_SHARE_DEFAULT } from "./detail-split.ts";
import { MessageInspector } from "./message-inspector.svelte.ts";
import { ValidationClient } from "./validation-client.ts";
import type { RunDone, RunInput, VerdictRow } from "./validation-protocol.ts";
import { addCounts, emptyCounts, filterRows, positionOf, reportFileName, type RowCounts, type RowFilter } from "./verdict-rows.ts";
import { keepFields } from "../../state/drafts.svelte.ts";

export type RunPhase = "idle" | "running" | "done" | "cancelled" | "failed";

/**
 * The Validate workbench's state: the pasted text, the run in the worker (progress, rows,
 * counts), the list's filter and selection, and the report export.
 */
export class ValidateState {
  readonly client: ValidationClient;
  readonly inspector: MessageInspector;
  pasteText = $state("");
  phase: RunPhase = $state("idle");
  done = $state(0);
  /** Messages found so far; -1 while the inputs are still being read and split. */
  total = $state(-1);
  elapsedMs = $state(0);
  failure = $state("");
  rows: readonly VerdictRow[] = $state.raw([]);
  counts: RowCounts = $state.raw(emptyCounts());
  inputs: readonly ReportInput[] = $state.raw([]);
  filter: RowFilter = $state("all");
  exporting = $state(false);
  exportError = $state("");
  /** The open message's share of the workbench's height, in percent; the list takes the rest. */
  detailShare = $state(DETAIL_SHARE_DEFAULT);
  /** Rows collected by the run, copied into `rows` as progress arrives. */
  #all: VerdictRow[] = [];
  #selectFirst = false;
  /** Held while the list is the run of the pasted text, for that text. */
  readonly #pasted = new ResultFor<true>(() => this.pasteText);

  readonly visible = $derived(filterRows(this.rows, this.filter));
  readonly running = $derived(this.phase === "running");

  constructor(client = new ValidationClient()) {
    this.client = client;
    this.inspector = new MessageInspector(client);
    keepFields(this, "validate.paste", ["pasteText"]);
  }

  /** True when the list is a run of pasted text and the text was changed since. */
  get pasteStale(): boolean {
    return this.#pasted.stale;
  }

  /** Position of the open message in the visible list, -1 when it is filtered out or none is open. */
  get selectedPosition(): number {
    return positionOf(this.visible, this.inspector.index);
  }

  validatePaste(): void {
    if (this.pasteText.trim() === "") return;
    this.run([{ name: "pasted", text: this.pasteText }]);
    this.#pasted.set(true);
  }

  validateFiles(files: Iterable<File>): void {
    const inputs = Array.from(files, (file): RunInput => ({ name: file.name, blob: file }));
    if (inputs.length > 0) this.run(inputs);
  }

  /** Validates the inputs in the worker, replacing the current results. */
  run(inputs: readonly RunInput[], options: { selectFirst?: boolean } = {}): void {
    this.#all = [];
    this.#pasted.clear();
    this.rows = [];
    this.counts = emptyCounts();
    this.inputs = [];
    this.done = 0;
    this.total = -1;
    this.elapsedMs = 0;
    this.failure = "";
    this.exportError = "";
    this.phase = "running";
    this.#selectFirst = options.selectFirst ?? false;
    this.inspector.close();
    this.client.run(inputs, {
      progress: (done, total, rows) => this.#progress(done, total, rows),
      done: (event) => this.#finish(event),
      failed: (message) => {
        this.failure = message;
        this.phase = "failed";
      },
    });
  }

  #progress(done: number, total: number, rows: readonly VerdictRow[]): void {
    this.done = done;
    this.total = total;
    if (rows.length === 0) return;
    for (const row of rows) this.#all.push(row);
    this.rows = this.#all.slice();
    this.counts = addCounts(this.counts, rows);
    if (this.#selectFirst) {
      this.#selectFirst = false;
      void this.inspector.open(0);
    }
  }

  #finish(event: RunDone): void {
    this.done = event.done;
    this.total = event.total;
    this.inputs = event.inputs;
    this.elapsedMs = event.elapsedMs;
    this.phase = event.cancelled ? "cancelled" : "done";
    // A single message is what the user came to look at: open it.
    if (event.total === 1 && this.inspector.index < 0 && this.#all.length === 1) void this.inspector.open(0);
  }

  cancel(): void {
    this.client.cancel();
  }

  /** Selects the row at `position` in the visible list and opens its message. */
  select(position: number): void {
    const row = this.visible[position];
    if (row && row.index !== this.inspector.index) void this.inspector.open(row.index);
  }

  setFilter(filter: RowFilter): void {
    this.filter = filter;
  }

  /** Downloads the whole run's report (every message, whatever the filter shows). */
  async exportReport(doc: Document = document): Promise<void> {
    this.exporting = true;
    this.exportError = "";
    try {
      const report = await this.client.exportReport();
      downloadBlob(report.blob, reportFileName(fileTimestamp(report.generatedAtMs)), doc);
    } catch (err) {
      this.exportError = `Could not export the report: ${err instanceof Error ? err.message : String(err)}`;
    } finally {
      this.exporting = false;
    }
  }
}

let shared: ValidateState | undefined;

/**
 * The page's one Validate state: results survive switching to another workbench and back, so it
 * must not belong to the workbench that happened to mount first.
 */
export function sharedValidateState(): ValidateState {
  shared ??= pageLifetime(() => new ValidateState());
  return shared;
}
