import { BackendError } from "../../../core/backend/backend-client.ts";
import type { RunProgress, RunStart } from "../../../core/backend/harness-api.ts";
import { canonicalCollection, type Collection, describeProblems, parseCollection, type RunReport, type StepReport } from "../../../core/harness/index.ts";
import type { DocumentKind, DocumentStore } from "../../../core/persist/document-store.ts";
import type { HarnessPort } from "./run-state.svelte.ts";

/** The workspace in memory, refusing an invalid collection with a 400 the way the backend does. */
export function checkedStore(): DocumentStore & { docs: Map<string, unknown>; failNext: Partial<Record<"list" | "read" | "write" | "remove", Error>> } {
  const docs = new Map<string, unknown>();
  const failNext: Partial<Record<"list" | "read" | "write" | "remove", Error>> = {};
  const key = (k: DocumentKind, n: string) => `${k}/${n}`;
  const failing = (op: keyof typeof failNext) => {
    const err = failNext[op];
    delete failNext[op];
    if (err) throw err;
  };
  return {
    docs,
    failNext,
    list: async (kind) => {
      failing("list");
      return [...docs.keys()].filter((k) => k.startsWith(`${kind}/`)).map((k) => ({ name: k.slice(kind.length + 1) }));
    },
    read: async (kind, name) => {
      failing("read");
      if (!docs.has(key(kind, name))) throw new BackendError(404, "not_found", `no ${kind} document "${name}"`);
      return structuredClone(docs.get(key(kind, name)));
    },
    write: async (kind, name, data) => {
      failing("write");
      if (kind === "collections") {
        const parsed = parseCollection(data);
        if (!parsed.ok) throw new BackendError(400, "invalid_collection", `the collection is not valid: ${describeProblems(parsed.problems)}`);
        data = canonicalCollection(parsed.collection);
      }
      docs.set(key(kind, name), structuredClone(data));
    },
    remove: async (kind, name) => {
      failing("remove");
      docs.delete(key(kind, name));
    },
  };
}

/** A scripted stand-in for the /api/harness routes; every call is recorded. */
export class FakeHarness implements HarnessPort {
  readonly starts: RunStart[] = [];
  readonly reads: { id: string; after: number }[] = [];
  readonly stops: string[] = [];
  /** Answers to progress reads, in order; an Error is thrown. */
  pages: (RunProgress | Error)[] = [];
  startError: Error | null = null;
  #next = 1;

  start = async (input: RunStart): Promise<string> => {
    this.starts.push(structuredClone(input) as RunStart);
    if (this.startError) throw this.startError;
    return `run-${this.#next++}`;
  };
  progress = async (id: string, after: number): Promise<RunProgress> => {
    this.reads.push({ id, after });
    const page = this.pages.shift();
    if (page === undefined) throw new Error("no progress scripted");
    if (page instanceof Error) throw page;
    return page;
  };
  stop = async (id: string): Promise<void> => {
    this.stops.push(id);
  };
}

export function stepReport(index: number, name: string, status: StepReport["status"], extra: Partial<StepReport> = {}): StepReport {
  return {
    index,
    name,
    protocol: "mcp",
    target: "everything",
    status,
    assertions: [],
    latencyMs: 12,
    frames: [],
    captured: {},
    ...extra,
  };
}

export function runReport(collection: string, steps: readonly StepReport[], extra: Partial<RunReport> = {}): RunReport {
  const count = (s: StepReport["status"]) => steps.filter((r) => r.status === s).length;
  return {
    format: "patchbay.run",
    version: 1,
    collection,
    environment: "default",
    startedAt: "2025-01-02T03:04:05.000Z",
    durationMs: 40,
    stopped: false,
    steps,
    totals: { steps: steps.length, passed: count("passed"), failed: count("failed"), errors: count("error"), skipped: count("skipped") },
    ...extra,
  };
}

export function progressPage(id: string, total: number, steps: readonly StepReport[], finished: number, report: RunReport | null = null, current: RunProgress["current"] = null): RunProgress {
  return { id, state: report ? "done" : "running", collection: "c", total, current, steps, finished, report };
}

/** A valid two-step collection against server-everything's stdio command. */
export function twoSteps(name = "demo"): Collection {
  return {
    name,
    targets: { everything: { protocol: "mcp", command: "node server.js stdio" } },
    environments: { default: {}, staging: { who: "world" } },
    secrets: { api_token: { env: "API_TOKEN" } },
    steps: [
      { name: "echo", target: "everything", action: { protocol: "mcp", method: "tools/call", params: { name: "echo", arguments: { message: "hi" } } }, assert: [{ kind: "outcome", is: "result" }] },
      { name: "sum", target: "everything", action: { protocol: "mcp", method: "tools/call", params: { name: "get-sum", arguments: { a: 1, b: 2 } } } },
    ],
  };
}

/** Lets every pending promise and microtask run. */
export const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
