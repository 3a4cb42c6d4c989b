import type { ServeApi } from "../../../core/backend/serve-api.ts";
import type { Clock, IdSource, Scheduler } from "../../../core/env/index.ts";
import type { DocumentStore } from "../../../core/persist/document-store.ts";
import { textArgument } from "../../../core/serving/a2a/message-call.ts";
import type { A2aSnippetInput } from "../../../core/serving/client-snippets.ts";
import type { Snippet } from "../../../core/serving/index.ts";
import type { WireLog } from "../../../core/wire/index.ts";
import { pageLifetime } from "../../lib/page-lifetime.svelte.ts";
import { A2aSurface } from "./a2a-surface.svelte.ts";
import { ApprovalsState } from "./approvals-state.svelte.ts";
import { McpSurface } from "./mcp-surface.svelte.ts";
import { NatsSurface } from "./nats-surface.svelte.ts";
import { ServedFrameRecorder } from "./served-frames.ts";
import { FRAME_PAGE, ServedTraffic } from "./served-traffic.svelte.ts";
import { repeat } from "./poller.ts";
import { SnippetsState } from "./snippets-state.svelte.ts";
import { ToolkitState } from "./toolkit-state.svelte.ts";

export const STATUS_POLL_MS = 2_000;

/** The routes the workbench uses; tests pass a fake. */
export type ServeApiPort = Pick<ServeApi, "mcpStatus" | "mcpStart" | "mcpStop" | "mcpFrames" | "natsStatus" | "natsStart" | "natsStop" | "natsFrames" | "a2aStatus" | "a2aStart" | "a2aStop" | "a2aFrames" | "approvals" | "decide" | "info">;

export interface ServeDeps {
  readonly api: ServeApiPort;
  readonly storage: DocumentStore;
  readonly wireLog: WireLog;
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly scheduler: Scheduler;
}

/**
 * Everything the Serve workbench holds: the toolkit in the editor, the three surfaces, the operator's
 * approvals, the snippets, and the traffic follower. It outlives the workbench's component, so the
 * served traffic keeps reaching the Traffic log while another workbench is open.
 */
export class ServeSession {
  readonly kit: ToolkitState;
  readonly mcp: McpSurface;
  readonly nats: NatsSurface;
  readonly a2a: A2aSurface;
  readonly traffic: ServedTraffic;
  readonly approvals: ApprovalsState;
  readonly snippets: SnippetsState;
  readonly #scheduler: Scheduler;

  constructor(deps: ServeDeps) {
    const { api } = deps;
    this.#scheduler = deps.scheduler;
    this.kit = new ToolkitState(deps.storage);
    const recorder = new ServedFrameRecorder(deps.wireLog, deps.ids);
    const frames = { mcp: (after: number) => api.mcpFrames(after, FRAME_PAGE), nats: (after: number) => api.natsFrames(after, FRAME_PAGE), a2a: (after: number) => api.a2aFrames(after, FRAME_PAGE) };
    this.traffic = new ServedTraffic(frames, recorder, deps.scheduler);
    this.mcp = new McpSurface(api, (running) => this.traffic.watch("mcp", running));
    this.nats = new NatsSurface(api, (running) => this.traffic.watch("nats", running));
    this.a2a = new A2aSurface(api, (running) => this.traffic.watch("a2a", running));
    this.approvals = new ApprovalsState(api, deps.clock, deps.scheduler);
    this.snippets = new SnippetsState(api);
  }

  /** Snippets for what runs now: the MCP URL, the NATS identity, the A2A card while each runs; stdio for the saved toolkit. */
  readonly snippetList: Snippet[] = $derived.by(() => {
    const mcp = this.mcp.status;
    const nats = this.nats.status;
    const a2a = this.#a2aSnippet();
    return this.snippets.list({
      name: mcp.running ? mcp.toolkit : this.a2a.status.running ? this.a2a.status.toolkit : (this.kit.toolkit?.name ?? "patchbay"),
      ...(mcp.running ? { mcpUrl: mcp.url } : {}),
      ...(nats?.serving ? { identity: nats.identity } : {}),
      ...(a2a ? { a2a } : {}),
    });
  });

  /** Where the A2A agent answers, and the argument its echo skill takes (read from the editor's echo, which is what was started). */
  #a2aSnippet(): A2aSnippetInput | undefined {
    const status = this.a2a.status;
    if (!status.running) return undefined;
    const echoServed = status.tools.some((t) => t.name === "echo" && t.served);
    const echo = this.kit.toolkit?.tools.find((t) => t.name === "echo");
    const echoArgument = echoServed && echo ? textArgument(echo) : undefined;
    return { cardUrl: status.cardUrl, jsonRpcUrl: status.jsonRpcUrl, ...(echoArgument !== undefined ? { echoArgument } : {}) };
  }

  /** Reads every surface's status now and every few seconds (sessions, counters, tasks), until stopped. */
  watchStatus(everyMs = STATUS_POLL_MS): () => void {
    return repeat(this.#scheduler, everyMs, async () => {
      await Promise.all([this.mcp.refresh(), this.nats.refresh(), this.a2a.refresh()]);
    });
  }
}

const sessions = new WeakMap<object, ServeSession>();

/**
 * The one session per app (keyed by its services object), made on first use; it lives as long as
 * the page, not as long as the workbench that happened to open first.
 */
export function serveSession(owner: object, deps: () => ServeDeps): ServeSession {
  let session = sessions.get(owner);
  if (!session) {
    session = pageLifetime(() => new ServeSession(deps()));
    sessions.set(owner, session);
  }
  return session;
}
