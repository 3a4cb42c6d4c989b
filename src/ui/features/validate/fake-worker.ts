// Test support: a tiny real engine (one pack, one family) and a worker that runs the runner in
// the same thread, so the client and the state are tested through the real protocol.
import { isJsonObject } from "../../../core/json/index.ts";
import { ValidationEngine } from "../../../core/validation/engine.ts";
import type { FamilyModule, MessageKind, SchemaPack } from "../../../core/validation/types.ts";
import type { WorkerLike } from "./validation-client.ts";
import type { WorkerRequest } from "./validation-protocol.ts";
import { ValidationRunner, type RunnerHost } from "./validation-runner.ts";

const PING: MessageKind = { id: "ping", label: "ping request", definition: "Ping", role: "request", direction: "either" };
const FAULT: MessageKind = { id: "fault", label: "fault", definition: "Fault", role: "error", direction: "either" };

export const TEST_PACK: SchemaPack = {
  id: "mcp/test",
  family: "mcp",
  version: "test",
  label: "MCP test",
  order: 1,
  draft: "draft-07",
  assertFormats: false,
  document: {
    $schema: "http://json-schema.org/draft-07/schema#",
    $id: "https://patchbay.dev/schemas/test.json",
    definitions: {
      Ping: {
        type: "object",
        required: ["ping", "n"],
        properties: { ping: { const: true }, n: { type: "integer" } },
        additionalProperties: false,
      },
      Fault: { type: "object", required: ["fault"], properties: { fault: { type: "string" } } },
    },
  },
  sources: [{ title: "Ping protocol notes", url: "https://example.org/ping", revision: "v1" }],
  notes: ["Fault is ours: any object with a fault string."],
  kinds: [PING, FAULT],
};

/** Recognises `{"ping": …}` as a ping and `{"fault": …}` as a fault; anything else is unrecognised. */
export const TEST_FAMILY: FamilyModule = {
  family: "mcp",
  label: "Test",
  packs: [TEST_PACK],
  createSession: () => ({
    recognise(value) {
      if (!isJsonObject(value)) return { candidates: [], reason: "not an object" };
      const kind = "ping" in value ? PING : "fault" in value ? FAULT : undefined;
      if (!kind) return { candidates: [], reason: "no ping or fault property" };
      return { candidates: [{ pack: TEST_PACK, kind, score: 0.95, evidence: [`has ${kind.id}`] }] };
    },
    check: () => [],
    observe: () => undefined,
  }),
};

export function testEngine(): ValidationEngine {
  return new ValidationEngine([TEST_FAMILY]);
}

/** A runner host that delivers events asynchronously (in a microtask, so fake timers do not hold them). */
export function asyncHost(deliver: RunnerHost["post"], overrides: Partial<RunnerHost> = {}): RunnerHost {
  return {
    post: (event) => queueMicrotask(() => deliver(event)),
    pause: () => new Promise((resolve) => setTimeout(resolve, 0)),
    now: () => performance.now(),
    wallNow: () => Date.UTC(2025, 0, 2, 3, 4, 5),
    ...overrides,
  };
}

/** A WorkerLike whose "worker" is a runner in this thread. */
export function inProcessWorker(createEngine: () => ValidationEngine = testEngine): WorkerLike & { terminated: boolean } {
  const worker: WorkerLike & { terminated: boolean } = {
    onmessage: null,
    onerror: null,
    onmessageerror: null,
    terminated: false,
    terminate() {
      this.terminated = true;
    },
    postMessage(request: WorkerRequest) {
      queueMicrotask(() => void runner.handle(request));
    },
  };
  const runner = new ValidationRunner(createEngine, asyncHost((event) => worker.onmessage?.({ data: event } as MessageEvent)));
  return worker;
}
