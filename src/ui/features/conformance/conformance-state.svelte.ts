import type { ConformanceApi } from "../../../core/backend/conformance-api.ts";
import type { Scheduler } from "../../../core/env/index.ts";
import type { ConformanceRunView, McpRequirements, TckScope } from "../../../core/harness/conformance-run-types.ts";
import { checkTargetUrl, type ConformanceKind } from "../../../core/harness/conformance-target.ts";
import { repeat } from "../serve/poller.ts";
import { resultRows, resultTotals, type ResultRow, type ResultTotals } from "./conformance-rows.ts";
import { keepFields } from "../../state/drafts.svelte.ts";

export const POLL_MS = 500;

export type ConformancePort = Pick<ConformanceApi, "startMcp" | "startA2a" | "run" | "stop">;

export const KIND_LABELS: Readonly<Record<ConformanceKind, string>> = { mcp: "MCP conformance suite", a2a: "A2A TCK" };
export const URL_HINTS: Readonly<Record<ConformanceKind, string>> = {
  mcp: "The MCP endpoint, e.g. http://127.0.0.1:7421/mcp",
  a2a: "The agent's base URL or card (its root /.well-known/agent-card.json), or its JSON-RPC endpoint",
};

/**
 * The conformance panel: which tool, the URL for each (and the MCP requirement set or the TCK's
 * scope), the run on show (started on the backend,
 * read by polling until it ends), why a start, stop or read failed (the backend's own words,
 * e.g. a missing prerequisite), and which result rows are opened.
 */
export class ConformanceState {
  kind = $state<ConformanceKind>("mcp");
  urls = $state<Record<ConformanceKind, string>>({ mcp: "", a2a: "" });
  scope = $state<TckScope>("mandatory");
  /** The MCP suite's requirement set: the protocol revision whose required scenarios run. */
  requirements = $state<McpRequirements>("2026-07-28");
  run = $state.raw<ConformanceRunView | null>(null);
  error = $state<string | null>(null);
  starting = $state(false);
  open = $state<Record<string, boolean>>({});

  readonly rows: ResultRow[] = $derived(resultRows(this.run));
  readonly totals: ResultTotals | null = $derived(resultTotals(this.run));

  readonly #api: ConformancePort;
  readonly #scheduler: Scheduler;
  #stopPolling: (() => void) | undefined;

  constructor(api: ConformancePort, scheduler: Scheduler) {
    this.#api = api;
    this.#scheduler = scheduler;
    // Kept across a reload: which suite, against which URL.
    keepFields(this, "conformance.form", ["kind", "urls", "scope"]);
    if (this.kind !== "mcp" && this.kind !== "a2a") this.kind = "mcp";
    if (this.scope !== "mandatory" && this.scope !== "all") this.scope = "mandatory";
  }

  get url(): string {
    return this.urls[this.kind];
  }
  set url(value: string) {
    this.urls[this.kind] = value;
  }

  get running(): boolean {
    return this.run?.state === "running";
  }

  /** What is wrong with the URL typed, once something is typed. */
  get urlProblem(): string | null {
    if (this.url.trim() === "") return null;
    const checked = checkTargetUrl(this.kind, this.url);
    return checked.ok ? null : checked.problem;
  }

  get canRun(): boolean {
    return !this.running && !this.starting && this.url.trim() !== "" && this.urlProblem === null;
  }

  /** Why the run on show gave no results, or was cut short, in the backend's words. */
  get problem(): string | null {
    return this.run?.problem?.message ?? null;
  }

  async start(): Promise<void> {
    if (!this.canRun) return;
    this.error = null;
    this.starting = true;
    const url = this.url.trim();
    try {
      const run = this.kind === "mcp" ? await this.#api.startMcp(url, this.requirements) : await this.#api.startA2a(url, this.scope);
      this.open = {};
      this.#follow(run);
    } catch (err) {
      this.error = (err as Error).message;
    } finally {
      this.starting = false;
    }
  }

  async stop(): Promise<void> {
    const run = this.run;
    if (!run || run.state !== "running") return;
    try {
      this.#show(await this.#api.stop(run.id));
    } catch (err) {
      this.error = `could not stop the run: ${(err as Error).message}`;
    }
  }

  toggle(key: string): void {
    this.open[key] = !this.open[key];
  }

  /** Stops reading the run (the panel is going away); the backend run carries on. */
  dispose(): void {
    this.#stopPolling?.();
    this.#stopPolling = undefined;
  }

  #follow(run: ConformanceRunView): void {
    this.dispose();
    this.#show(run);
    if (run.state !== "running") return;
    this.#stopPolling = repeat(this.#scheduler, POLL_MS, () => this.#poll(run.id));
  }

  async #poll(id: string): Promise<void> {
    if (this.run?.id !== id) return;
    try {
      const run = await this.#api.run(id);
      if (this.run?.id === id) this.#show(run);
    } catch (err) {
      this.error = `lost the run: ${(err as Error).message}`;
      this.dispose();
    }
  }

  #show(run: ConformanceRunView): void {
    this.run = run;
    if (run.state !== "running") this.dispose();
  }
}
