// The validation worker. The engine, ajv and the packs load here only, never on the page: ajv
// generates code, which the backend allows for this file (validation-worker-*.js) and not for the
// page, and bulk work here keeps the tab responsive.
import { createValidationEngine } from "../../../core/packs/index.ts";
import type { WorkerEvent, WorkerRequest } from "./validation-protocol.ts";
import { ValidationRunner } from "./validation-runner.ts";

/** The parts of DedicatedWorkerGlobalScope used here (the app's tsconfig has DOM types, not WebWorker). */
interface WorkerScope {
  postMessage(message: WorkerEvent): void;
  addEventListener(type: "message", listener: (event: MessageEvent<WorkerRequest>) => void): void;
  addEventListener(type: "error", listener: (event: ErrorEvent) => void): void;
  addEventListener(type: "unhandledrejection", listener: (event: PromiseRejectionEvent) => void): void;
}

const scope = globalThis as unknown as WorkerScope;
const post = (event: WorkerEvent): void => scope.postMessage(event);

const runner = new ValidationRunner(createValidationEngine, {
  post,
  pause: () => new Promise((resolve) => setTimeout(resolve, 0)),
  now: () => performance.now(),
  wallNow: () => Date.now(),
});

scope.addEventListener("message", (event) => {
  runner.handle(event.data).catch((err: unknown) => post({ type: "crash", message: String(err) }));
});
scope.addEventListener("error", (event) => post({ type: "crash", message: event.message || "uncaught error" }));
scope.addEventListener("unhandledrejection", (event) => post({ type: "crash", message: String(event.reason) }));
