import { BackendError } from "../../../core/backend/backend-client.ts";
import type { A2aServeStatus, A2aServing, McpServeStatus, McpServing, NatsServeStatus, NatsServing, PendingApproval, ServedFramePage, ServeInfo } from "../../../core/backend/serve-api.ts";
import type { DocumentKind, DocumentStore } from "../../../core/persist/document-store.ts";
import type { ServeApiPort } from "./serve-session.svelte.ts";

/** A scripted stand-in for the /api/serve routes, for the adapters' unit tests; every call is recorded. */
export class FakeServeApi implements ServeApiPort {
  readonly calls: { readonly name: string; readonly args: readonly unknown[] }[] = [];
  mcp: McpServeStatus = { running: false };
  nats: NatsServeStatus = { serving: false, identity: "patchbay-demo", subjects: null, served: [] };
  mcpPages: (ServedFramePage | Error)[] = [];
  natsPages: (ServedFramePage | Error)[] = [];
  a2a: A2aServeStatus = { running: false };
  a2aPages: (ServedFramePage | Error)[] = [];
  pending: PendingApproval[] = [];
  fail: Partial<Record<string, Error>> = {};
  infoAnswer: ServeInfo = { stdio: { command: "node", args: ["/app/bin/patchbay.mjs", "serve", "--stdio", "/ws/toolkits/kit.json"] }, workspace: "/ws" };

  #call<T>(name: string, args: unknown[], answer: () => T): Promise<T> {
    this.calls.push({ name, args });
    const failure = this.fail[name];
    return failure ? Promise.reject(failure) : Promise.resolve().then(answer);
  }
  named(name: string): readonly unknown[][] {
    return this.calls.filter((c) => c.name === name).map((c) => [...c.args]);
  }

  mcpStatus = () => this.#call("mcpStatus", [], () => this.mcp);
  mcpStart = (input: object) =>
    this.#call("mcpStart", [input], () => {
      this.mcp = RUNNING_MCP;
      return { ...RUNNING_MCP, issues: ["warning at /tools/1: odd"] };
    });
  mcpStop = () => this.#call("mcpStop", [], () => (this.mcp = { running: false }));
  mcpFrames = (after: number, limit?: number) => this.#call("mcpFrames", [after, limit], () => page(this.mcpPages.shift(), after));
  natsStatus = () => this.#call("natsStatus", [], () => this.nats);
  natsStart = (input: object) => this.#call("natsStart", [input], () => (this.nats = RUNNING_NATS));
  natsStop = () => this.#call("natsStop", [], () => (this.nats = { serving: false, identity: "patchbay-demo", subjects: null, served: [] }));
  natsFrames = (after: number, limit?: number) => this.#call("natsFrames", [after, limit], () => page(this.natsPages.shift(), after));
  a2aStatus = () => this.#call("a2aStatus", [], () => this.a2a);
  a2aStart = (input: object) =>
    this.#call("a2aStart", [input], () => {
      this.a2a = RUNNING_A2A;
      return { ...RUNNING_A2A, issues: [] };
    });
  a2aStop = () => this.#call("a2aStop", [], () => (this.a2a = { running: false }));
  a2aFrames = (after: number, limit?: number) => this.#call("a2aFrames", [after, limit], () => page(this.a2aPages.shift(), after));
  approvals = () => this.#call("approvals", [], () => [...this.pending]);
  decide = (id: string, approve: boolean) =>
    this.#call("decide", [id, approve], () => {
      if (!this.pending.some((a) => a.id === id)) throw new BackendError(404, "not_found", `no approval ${id}`);
      this.pending = this.pending.filter((a) => a.id !== id);
    });
  info = (toolkit?: string) => this.#call("info", [toolkit], () => this.infoAnswer);
}

function page(next: ServedFramePage | Error | undefined, after: number): ServedFramePage {
  if (next instanceof Error) throw next;
  return next ?? { frames: [], next: after, dropped: 0 };
}

export const RUNNING_MCP: McpServing = {
  running: true,
  url: "http://127.0.0.1:40001/mcp",
  port: 40001,
  toolkit: "patchbay-demo",
  confirmMode: "operator",
  concurrency: 2,
  fixtures: false,
  sessions: 0,
  tasks: { running: 0, kept: 0 },
  startedAt: 1_700_000_000_000,
  tools: [
    { name: "echo", served: true, reason: "served" },
    { name: "confirm", served: true, reason: "served; each call needs approval" },
  ],
  fixtureTools: ["test_simple_text"],
};

export const RUNNING_NATS: NatsServing = {
  serving: true,
  server: "nats://127.0.0.1:4222",
  identity: "patchbay-demo",
  serviceId: "svc1",
  generation: "gen2",
  concurrency: 2,
  keepaliveMs: 10_000,
  callTimeoutMs: 30_000,
  subjects: { discovery: "choria.fisk-ai.discovery.patchbay-demo", tool: "choria.fisk-ai.tool.patchbay-demo" },
  served: [{ name: "confirm", served: false, reason: "needs approval (ai:confirm), and a peer agent has no operator to ask" }],
  active: 0,
  pending: 0,
  endpoints: { discovery: { requests: 1, errors: 0, lastError: "" }, tool: { requests: 2, errors: 0, lastError: "" } },
};

export const RUNNING_A2A: A2aServing = {
  running: true,
  port: 40002,
  baseUrl: "http://127.0.0.1:40002",
  cardUrl: "http://127.0.0.1:40002/.well-known/agent-card.json",
  jsonRpcUrl: "http://127.0.0.1:40002/a2a/jsonrpc",
  restUrl: "http://127.0.0.1:40002/a2a/rest",
  toolkit: "patchbay-demo",
  confirm: "omit",
  concurrency: 2,
  defaultSkill: "echo",
  startedAt: 1_700_000_000_000,
  tasks: { running: 0, kept: 3 },
  tools: [
    { name: "echo", served: true, reason: "served" },
    { name: "confirm", served: false, reason: "needs approval (ai:confirm), and a peer agent has no operator to ask; serve with confirm asking to keep it" },
  ],
};

/** Lets every pending promise and microtask run. */
export const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** The workspace in memory. */
export function memoryStore(): DocumentStore & { docs: Map<string, unknown> } {
  const docs = new Map<string, unknown>();
  const key = (k: DocumentKind, n: string) => `${k}/${n}`;
  return {
    docs,
    list: async (kind) => [...docs.keys()].filter((k) => k.startsWith(`${kind}/`)).map((k) => ({ name: k.slice(kind.length + 1) })),
    read: async (kind, name) => {
      if (!docs.has(key(kind, name))) throw new Error("not found");
      return structuredClone(docs.get(key(kind, name)));
    },
    write: async (kind, name, data) => void docs.set(key(kind, name), structuredClone(data)),
    remove: async (kind, name) => void docs.delete(key(kind, name)),
  };
}
