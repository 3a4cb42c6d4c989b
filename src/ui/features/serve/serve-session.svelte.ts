import type { ServeApi } from "../../../core/backend/serve-api.ts";
import type { Clock, IdSource, Scheduler } from "../../../core/env/index.ts";
import type { DocumentStore } from "../../../core/persist/document-store.ts";
import type { Snippet } from "../../../core/serving/index.ts";
import type { WireLog } from "../../../core/wire/index.ts";
import { pageLifetime } from "../../lib/page-lifetime.svelte.ts";
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
export type ServeApiPort = Pick<ServeApi, "mcpStatus" | "mcpStart" | "mcpStop" | "mcpFrames" | "natsStatus" | "natsStart" | "natsStop" | "natsFrames" | "approvals" | "decide" | "info">;

export interface ServeDeps {
  readonly api: ServeApiPort;
  readonly storage: DocumentStore;
  readonly wireLog: WireLog;
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly scheduler: Scheduler;
}

/**
 * Everything the Serve workbench holds: the toolkit in the editor, both surfaces, the operator's
 * approvals, the snippets, and the traffic follower. It outlives the workbench's component, so the
 * served traffic keeps reaching the Traffic log while another workbench is open.
 */
export class ServeSession {
  readonly kit: ToolkitState;
  readonly mcp: McpSurface;
  readonly nats: NatsSurface;
  readonly traffic: ServedTraffic;
  readonly approvals: ApprovalsState;
  readonly snippets: SnippetsState;
  readonly #scheduler: Scheduler;

  constructor(deps: ServeDeps) {
    const { api } = deps;
    this.#scheduler = deps.scheduler;
    this.kit = new ToolkitState(deps.storage);
    const recorder = new ServedFrameRecorder(deps.wireLog, deps.ids);
    this.traffic = new ServedTraffic({ mcp: (after) => api.mcpFrames(after, FRAME_PAGE), nats: (after) => api.natsFrames(after, FRAME_PAGE) }, recorder, deps.scheduler);
    this.mcp = new McpSurface(api, (running) => this.traffic.watch("mcp", running));
    this.nats = new NatsSurface(api, (running) => this.traffic.watch("nats", running));
    this.approvals = new ApprovalsState(api, deps.clock, deps.scheduler);
    this.snippets = new SnippetsState(api);
  }

  /** Snippets for what runs now: the MCP URL while it runs, the NATS identity while that runs, stdio for the saved toolkit. */
  readonly snippetList: Snippet[] = $derived.by(() => {
    const mcp = this.mcp.status;
    const nats = this.nats.status;
    return this.snippets.list({
      name: mcp.running ? mcp.toolkit : (this.kit.toolkit?.name ?? "patchbay"),
      ...(mcp.running ? { mcpUrl: mcp.url } : {}),
      ...(nats?.serving ? { identity: nats.identity } : {}),
    });
  });

  /** Reads both surfaces' status now and every few seconds (sessions, counters), until stopped. */
  watchStatus(everyMs = STATUS_POLL_MS): () => void {
    return repeat(this.#scheduler, everyMs, async () => {
      await Promise.all([this.mcp.refresh(), this.nats.refresh()]);
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
