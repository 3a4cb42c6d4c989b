import { splitInput, type BatchItem } from "../../../core/validation/batch-input.ts";
import type { ValidationEngine, ValidationSession } from "../../../core/validation/engine.ts";
import { buildReport, firstIssue, itemPlace, summarise, validateItem, type ReportInput } from "../../../core/validation/report.ts";
import { ParsedAhead } from "../../../core/validation/parsed-ahead.ts";
import type { Override, Verdict } from "../../../core/validation/types.ts";
import type { MessageDetail, PackInfo, Query, ReplyValues, RunInput, VerdictRow, WorkerEvent, WorkerRequest } from "./validation-protocol.ts";

/** A slice of work ends after this many messages or this much time, whichever comes first. */
export const SLICE_MESSAGES = 1000;
export const SLICE_MS = 50;
const PRETTY_REPORT_LIMIT = 10_000;
/** Named sessions kept for validate-one; the least recently used is dropped beyond this. */
export const MAX_NAMED_SESSIONS = 8;

/** What the runner needs from where it runs: the worker scope, or a test. */
export interface RunnerHost {
  post(event: WorkerEvent): void;
  /** Lets queued messages (a cancel) in between slices. */
  pause(): Promise<void>;
  /** Monotonic milliseconds. */
  now(): number;
  wallNow(): number;
}

interface Batch {
  readonly run: number;
  readonly items: BatchItem[];
  readonly places: string[];
  readonly verdicts: Verdict[];
  readonly inputs: ReportInput[];
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message || err.name : String(err);
}

/** The list's compact line for one verdict. */
export function verdictRow(index: number, place: string, verdict: Verdict): VerdictRow {
  const issue = firstIssue(verdict);
  const problem = issue?.message ?? (verdict.status === "unrecognised" ? verdict.evidence[0] ?? "Not a known protocol message." : undefined);
  return {
    index,
    place,
    status: verdict.status,
    ...(verdict.family && { family: verdict.family }),
    ...(verdict.packLabel && { pack: verdict.packLabel }),
    ...(verdict.kindLabel && { kind: verdict.kindLabel }),
    ...(problem !== undefined && { problem }),
    ...(issue?.line !== undefined && { at: `${issue.line}:${issue.column ?? 1}` }),
  };
}

/**
 * The worker's side of the protocol: keeps the current batch (items and verdicts), validates it
 * in slices with a pause between them so a cancel gets through, and answers queries about it.
 */
export class ValidationRunner {
  readonly #host: RunnerHost;
  readonly #createEngine: () => ValidationEngine;
  #engine: ValidationEngine | undefined;
  #batch: Batch | undefined;
  #cancelled = -1;
  readonly #named = new Map<string, ValidationSession>();

  constructor(createEngine: () => ValidationEngine, host: RunnerHost) {
    this.#createEngine = createEngine;
    this.#host = host;
  }

  get #ready(): ValidationEngine {
    this.#engine ??= this.#createEngine();
    return this.#engine;
  }

  handle(request: WorkerRequest): Promise<void> {
    switch (request.type) {
      case "run":
        return this.#run(request.run, request.inputs);
      case "cancel":
        this.#cancelled = request.run;
        return Promise.resolve();
      default:
        return this.#answer(request);
    }
  }

  async #answer(query: Query): Promise<void> {
    try {
      const value = await this.#query(query);
      this.#host.post({ type: "reply", id: query.id, ok: true, value });
    } catch (err) {
      this.#host.post({ type: "reply", id: query.id, ok: false, message: messageOf(err) });
    }
  }

  #query(query: Query): Promise<ReplyValues[typeof query.type]> | ReplyValues[typeof query.type] {
    switch (query.type) {
      case "detail":
        return this.#detail(query.index, query.override);
      case "validate-one":
        // Unnamed, a fresh session: an edited or re-classified message is judged on its own.
        return this.#sessionNamed(query.session).validateText(query.text, query.override);
      case "export":
        return this.#export();
      case "catalog":
        return this.#catalog();
      case "check-schema":
        return this.#ready.compiler.checkDynamic(query.schema, query.value, query.pointer, query.draft);
    }
  }

  /** Queries are answered in the order they were posted, so a named session sees frames in order. */
  #sessionNamed(name: string | undefined): ValidationSession {
    if (name === undefined) return this.#ready.session();
    let session = this.#named.get(name);
    if (session) this.#named.delete(name);
    else session = this.#ready.session();
    this.#named.set(name, session);
    if (this.#named.size > MAX_NAMED_SESSIONS) this.#named.delete(this.#named.keys().next().value!);
    return session;
  }

  #detail(index: number, override: Override | undefined): MessageDetail {
    const batch = this.#batch;
    const item = batch?.items[index];
    const stored = batch?.verdicts[index];
    if (!batch || !item || !stored) throw new Error(`No validated message #${index} in the current run.`);
    let verdict = stored;
    if (override) {
      const session = this.#ready.session();
      verdict = item.error === undefined ? session.validateText(item.text, override) : validateItem(session, item);
    }
    return { index, place: batch.places[index] ?? item.source, text: item.text, verdict };
  }

  #export(): ReplyValues["export"] {
    const batch = this.#batch;
    if (!batch) throw new Error("Nothing has been validated yet.");
    const results = batch.verdicts.map((verdict, i) => ({ item: batch.items[i]!, verdict }));
    const generatedAtMs = this.#host.wallNow();
    const report = buildReport(batch.inputs, results, generatedAtMs);
    // Indented for reading; compact for big runs, where indentation would double the size.
    const indent = results.length <= PRETTY_REPORT_LIMIT ? 2 : undefined;
    const blob = new Blob([JSON.stringify(report, null, indent)], { type: "application/json" });
    return { blob, messages: results.length, generatedAtMs };
  }

  #catalog(): PackInfo[] {
    return this.#ready.packs().map((p) => ({
      id: p.id,
      label: p.label,
      family: p.family,
      draft: p.draft,
      sources: p.sources.map((s) => ({ title: s.title, url: s.url, ...(s.revision !== undefined && { revision: s.revision }) })),
      notes: [...p.notes],
      kinds: p.kinds.map((k) => ({ id: k.id, label: k.label })),
    }));
  }

  async #split(batch: Batch, inputs: readonly RunInput[]): Promise<number[]> {
    const owners: number[] = [];
    for (const [n, input] of inputs.entries()) {
      const text = "text" in input ? input.text : await input.blob.text();
      if (this.#stopped(batch)) return owners;
      const split = splitInput(input.name, text);
      const several = split.count > 1;
      for (let i = 0; i < split.count; i++) {
        const item = split.item(i);
        batch.items.push(item);
        batch.places.push(itemPlace(item, several));
        owners.push(n);
      }
      batch.inputs.push({ source: input.name, format: split.format, messages: split.count, notes: split.notes });
    }
    return owners;
  }

  #stopped(batch: Batch): boolean {
    return this.#batch !== batch || this.#cancelled === batch.run;
  }

  async #run(run: number, inputs: readonly RunInput[]): Promise<void> {
    const batch: Batch = { run, items: [], places: [], verdicts: [], inputs: [] };
    this.#batch = batch;
    const host = this.#host;
    const started = host.now();
    try {
      const owners = await this.#split(batch, inputs);
      const engine = this.#ready;
      // One session per input: what a capture teaches (the negotiated version) stays in it.
      const sessions = new Map<number, ValidationSession>();
      const total = batch.items.length;
      host.post({ type: "progress", run, done: 0, total, rows: [] });
      const ahead = new ParsedAhead(total, (i) => batch.items[i]!);
      let done = 0;
      while (done < total && !this.#stopped(batch)) {
        const sliceStart = host.now();
        const rows: VerdictRow[] = [];
        while (done < total && rows.length < SLICE_MESSAGES && host.now() - sliceStart < SLICE_MS) {
          const owner = owners[done]!;
          let session = sessions.get(owner);
          if (!session) sessions.set(owner, (session = engine.session()));
          const verdict = ahead.validate(session, done);
          batch.verdicts.push(verdict);
          rows.push(verdictRow(done, batch.places[done]!, verdict));
          done++;
        }
        host.post({ type: "progress", run, done, total, rows });
        await host.pause();
      }
      // A newer run replaced this one: it reports for itself.
      if (this.#batch !== batch) return;
      host.post({
        type: "done",
        run,
        cancelled: done < total,
        done,
        total,
        summary: summarise(batch.verdicts),
        inputs: batch.inputs,
        elapsedMs: host.now() - started,
      });
    } catch (err) {
      const at = batch.verdicts.length < batch.items.length ? ` (at message #${batch.verdicts.length})` : "";
      host.post({ type: "failed", run, message: `Validation stopped${at}: ${messageOf(err)}` });
    }
  }
}
