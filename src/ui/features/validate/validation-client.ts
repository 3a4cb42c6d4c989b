import type { Issue, Override, SchemaDraft, Verdict } from "../../../core/validation/types.ts";
import {
  isWorkerEvent,
  type ExportedReport,
  type MessageDetail,
  type PackInfo,
  type Query,
  type QueryKind,
  type ReplyValues,
  type RunDone,
  type RunInput,
  type VerdictRow,
  type WorkerEvent,
  type WorkerRequest,
} from "./validation-protocol.ts";

/** The parts of a Worker the client uses, so tests can pass a fake. */
export interface WorkerLike {
  postMessage(message: WorkerRequest): void;
  terminate(): void;
  onmessage: ((event: MessageEvent) => void) | null;
  onerror: ((event: ErrorEvent | Event) => void) | null;
  /** A message from the worker could not be deserialised. */
  onmessageerror: ((event: MessageEvent) => void) | null;
}

export type WorkerFactory = () => WorkerLike;

/** Receives one run's events; exactly one of done and failed ends it. */
export interface RunListener {
  progress(done: number, total: number, rows: readonly VerdictRow[]): void;
  done(event: RunDone): void;
  failed(message: string): void;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** Creates the real worker; Vite bundles it as `validation-worker-<hash>.js`. */
export function createValidationWorker(): WorkerLike {
  return new Worker(new URL("./validation-worker.ts", import.meta.url), { type: "module", name: "validation" }) as WorkerLike;
}

/**
 * The page's side of the worker protocol: one run at a time, queries answered by promise. A
 * worker that dies (its script blocked, an uncaught error) fails the run and every pending
 * query with the reason, and is replaced on the next call; a crash it reports, or a message
 * from it that cannot be read, fails them too.
 */
export class ValidationClient {
  readonly #factory: WorkerFactory;
  #worker: WorkerLike | undefined;
  #run = 0;
  #listener: RunListener | undefined;
  #nextId = 1;
  readonly #pending = new Map<number, Pending>();

  constructor(factory: WorkerFactory = createValidationWorker) {
    this.#factory = factory;
  }

  #ensure(): WorkerLike {
    if (this.#worker) return this.#worker;
    const worker = this.#factory();
    worker.onmessage = (event) => {
      if (isWorkerEvent(event.data)) this.#receive(event.data);
    };
    worker.onerror = (event) => {
      const message = (event as Partial<ErrorEvent>).message;
      const detail = typeof message === "string" && message !== "" ? message : "its script failed to load or was blocked";
      this.#broken(`The validation worker stopped: ${detail}.`);
    };
    // The lost message may have been a reply or the end of a run: nothing waiting can trust it any more.
    worker.onmessageerror = () => this.#fail("The validation worker failed: one of its messages could not be read.");
    this.#worker = worker;
    return worker;
  }

  #broken(message: string): void {
    this.#worker?.terminate();
    this.#worker = undefined;
    this.#fail(message);
  }

  #fail(message: string): void {
    const listener = this.#listener;
    this.#listener = undefined;
    listener?.failed(message);
    for (const pending of this.#pending.values()) pending.reject(new Error(message));
    this.#pending.clear();
  }

  #receive(event: WorkerEvent): void {
    switch (event.type) {
      case "progress":
        if (event.run === this.#run) this.#listener?.progress(event.done, event.total, event.rows);
        return;
      case "done":
      case "failed": {
        if (event.run !== this.#run) return;
        const listener = this.#listener;
        this.#listener = undefined;
        if (event.type === "done") listener?.done(event);
        else listener?.failed(event.message);
        return;
      }
      case "reply": {
        const pending = this.#pending.get(event.id);
        this.#pending.delete(event.id);
        if (event.ok) pending?.resolve(event.value);
        else pending?.reject(new Error(event.message));
        return;
      }
      case "crash":
        this.#fail(`The validation worker failed: ${event.message}`);
    }
  }

  /** Starts a run, replacing any run in progress (whose listener hears nothing more). */
  run(inputs: readonly RunInput[], listener: RunListener): void {
    const worker = this.#ensure();
    this.#run++;
    this.#listener = listener;
    worker.postMessage({ type: "run", run: this.#run, inputs });
  }

  /** Asks the worker to stop; the run ends with a `done` event marked cancelled. */
  cancel(): void {
    if (this.#listener) this.#worker?.postMessage({ type: "cancel", run: this.#run });
  }

  #ask<K extends QueryKind>(query: Omit<Extract<Query, { type: K }>, "id">): Promise<ReplyValues[K]> {
    const worker = this.#ensure();
    const id = this.#nextId++;
    return new Promise<ReplyValues[K]>((resolve, reject) => {
      this.#pending.set(id, { resolve: (value) => resolve(value as ReplyValues[K]), reject });
      worker.postMessage({ ...query, id } as Query);
    });
  }

  detail(index: number, override?: Override): Promise<MessageDetail> {
    return this.#ask<"detail">({ type: "detail", index, ...(override && { override }) });
  }

  /** One message; with `session`, judged after the messages sent before it under the same name. */
  validateOne(text: string, override?: Override, session?: string): Promise<Verdict> {
    return this.#ask<"validate-one">({ type: "validate-one", text, ...(override && { override }), ...(session !== undefined && { session }) });
  }

  exportReport(): Promise<ExportedReport> {
    return this.#ask<"export">({ type: "export" });
  }

  catalog(): Promise<PackInfo[]> {
    return this.#ask<"catalog">({ type: "catalog" });
  }

  /** `value` against a peer-supplied schema, compiled in the worker (the page may not generate code). */
  checkSchema(schema: unknown, value: unknown, pointer: string, draft: SchemaDraft): Promise<Issue[]> {
    return this.#ask<"check-schema">({ type: "check-schema", schema, value, pointer, draft });
  }

  dispose(): void {
    this.#worker?.terminate();
    this.#worker = undefined;
    this.#fail("The validation worker was closed.");
  }
}
