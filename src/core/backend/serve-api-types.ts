/** What the /api/serve routes answer, as the Serve workbench reads it. */
/** How confirm-tagged MCP calls are approved; `operator` waits for the console's decision. */
export type ServeConfirmMode = "auto" | "always" | "never" | "operator";
export const SERVE_CONFIRM_MODES: readonly ServeConfirmMode[] = ["auto", "always", "never", "operator"];

export interface ServedTool { readonly name: string; readonly served: boolean; readonly reason: string }

export interface McpServing {
  readonly running: true;
  readonly url: string;
  readonly port: number;
  readonly toolkit: string;
  readonly confirmMode: string;
  readonly concurrency: number;
  readonly timeoutMs?: number;
  readonly fixtures: boolean;
  /** Legacy-era sessions (2024-11-05 … 2025-11-25); modern (2026-07-28) clients keep none. */
  readonly sessions: number;
  /** Tool calls running as tasks, and the tasks kept. */
  readonly tasks: { readonly running: number; readonly kept: number };
  readonly startedAt: number;
  readonly tools: readonly ServedTool[];
  readonly fixtureTools: readonly string[];
  /** fisk-ai agents bridged over NATS, their tools as MCP names them, and what the bridge warned about. */
  readonly bridge?: McpBridgeStatus;
}
export interface McpBridgeStatus {
  readonly identities: readonly string[];
  readonly tools: readonly { readonly name: string; readonly agent: string; readonly remoteName: string }[];
  readonly warnings: readonly string[];
}
/** Which agents to bridge; include/exclude are patterns on tool names. */
export interface McpBridgeInput { readonly identities: readonly string[]; readonly include?: readonly string[]; readonly exclude?: readonly string[] }
export type McpServeStatus = { readonly running: false } | McpServing;
/** A started surface, with the toolkit's warnings the backend logged. */
export type McpStarted = McpServing & { readonly issues: readonly string[] };

export interface McpStartInput { readonly port?: number; readonly toolkit?: unknown; readonly confirmMode?: ServeConfirmMode; readonly concurrency?: number; readonly timeoutMs?: number; readonly fixtures?: boolean; readonly bridge?: McpBridgeInput }

export interface EndpointCounters { readonly requests: number; readonly errors: number; readonly lastError: string }
export interface NatsSubjects { readonly discovery: string; readonly tool: string; readonly task?: string }
/** The served agent's own connection: the node it is on and whether it is connected now. */
export interface NatsServeConnection { readonly state: "connected" | "reconnecting"; readonly node?: { readonly name: string; readonly url: string; readonly cluster?: string }; readonly reconnects: number }
export interface NatsServing {
  readonly serving: true;
  readonly server: string;
  readonly identity: string;
  /** This agent's name among the identity's instances. */
  readonly instance?: string;
  readonly connection?: NatsServeConnection;
  /** Gen 2: tasks running now against the task workers, and conversations kept. */
  readonly tasks?: { readonly inFlight: number; readonly workers: number; readonly conversations: number };
  readonly serviceId: string;
  readonly generation: "gen2" | "gen1";
  readonly concurrency: number;
  readonly keepaliveMs: number;
  readonly callTimeoutMs: number;
  readonly subjects: NatsSubjects;
  readonly served: readonly ServedTool[];
  readonly active: number;
  readonly pending: number;
  readonly endpoints: { readonly discovery: EndpointCounters; readonly tool: EndpointCounters; readonly task?: EndpointCounters };
}
export interface NatsStopped { readonly serving: false; readonly identity: string; readonly subjects: NatsSubjects | null; readonly served: readonly ServedTool[]; readonly message?: string }
export type NatsServeStatus = NatsServing | NatsStopped;

export interface NatsStartInput {
  readonly toolkit?: unknown;
  readonly concurrency?: number;
  readonly generation?: "gen2" | "gen1";
  readonly keepaliveMs?: number;
  readonly callTimeoutMs?: number;
  /** Serve under this identity (join its other instances) instead of the toolkit's name. */
  readonly identity?: string;
  readonly instance?: string;
}

/** Over A2A a confirm-tagged tool is left out (`omit`), or kept and asked about in its task (`ask`, input-required). */
export type A2aServeConfirm = "omit" | "ask";
export const A2A_SERVE_CONFIRMS: readonly A2aServeConfirm[] = ["omit", "ask"];

export interface A2aServing {
  readonly running: true;
  readonly port: number;
  readonly baseUrl: string;
  readonly cardUrl: string;
  readonly jsonRpcUrl: string;
  readonly restUrl: string;
  readonly toolkit: string;
  readonly confirm: A2aServeConfirm;
  readonly concurrency: number;
  readonly timeoutMs?: number;
  /** The tool a text-only message runs, if any. */
  readonly defaultSkill?: string;
  readonly startedAt: number;
  /** Tasks running now, and tasks the agent still holds for tasks/get (finished ones included). */
  readonly tasks: { readonly running: number; readonly kept: number };
  readonly tools: readonly ServedTool[];
}
export type A2aServeStatus = { readonly running: false } | A2aServing;
export type A2aStarted = A2aServing & { readonly issues: readonly string[] };
export interface A2aStartInput { readonly port?: number; readonly toolkit?: unknown; readonly confirm?: A2aServeConfirm; readonly concurrency?: number; readonly timeoutMs?: number; readonly defaultSkill?: string }

/** One served frame, verbatim; `in` reached the served agent, `out` left it. */
export interface ServedFrame {
  readonly seq: number;
  /** Epoch ms. */
  readonly at: number;
  readonly direction: "in" | "out";
  readonly session?: string;
  readonly subject?: string;
  readonly reply?: string;
  readonly headers?: Readonly<Record<string, string[]>>;
  readonly text: string;
  readonly truncated?: true;
  /** The original length, when the backend cut the text. */
  readonly length?: number;
  /** A2A over HTTP: which binding ("card", "jsonrpc", "rest"), the HTTP method and path, and the status of an answer. */
  readonly binding?: string;
  readonly method?: string;
  readonly path?: string;
  readonly status?: number;
}
export interface ServedFramePage { readonly frames: readonly ServedFrame[]; readonly next: number; readonly dropped: number }

export interface PendingApproval {
  readonly id: string;
  readonly surface: string;
  readonly tool: string;
  readonly what: string;
  readonly arguments: unknown;
  /** Epoch ms. */
  readonly askedAt: number;
  readonly expiresAt: number;
}

export interface ServeInfo { readonly stdio: { readonly command: string; readonly args: readonly string[] }; readonly workspace: string }
