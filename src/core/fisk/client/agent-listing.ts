import { isJsonObject } from "../../json/index.ts";
import type { NatsMessage } from "../../nats/port.ts";
import { freshInbox, plainRequest, textOf, type FiskClientDeps } from "./deps.ts";

/** What every fisk-ai agent's micro service says of itself. */
export const FISK_SERVICE_DESCRIPTION = "fisk-ai a2a tool server";
export const MICRO_INFO_SUBJECT = "$SRV.INFO";
export const DEFAULT_LISTING_TIMEOUT_MS = 3000;
export const DEFAULT_LISTING_STALL_MS = 300;

export interface AgentSummary {
  readonly identity: string;
  /** The micro service instance id: one per running process. */
  readonly instanceId: string;
  /** The fisk-ai instance name the service gives in its metadata (Patchbay's do). */
  readonly instance?: string;
  readonly version: string;
  readonly endpoints: readonly { name: string; subject: string }[];
}

export interface AgentListing {
  readonly agents: AgentSummary[];
  /** Micro services that are not fisk-ai agents, and replies that were not service info at all. */
  readonly otherServices: number;
  readonly elapsedMs: number;
  /** Why the question could not be asked (publish or flush failed). */
  readonly error?: string;
}

export interface ListingOptions {
  timeoutMs?: number;
  stallMs?: number;
  signal?: AbortSignal;
}

function summary(message: NatsMessage): AgentSummary | null {
  let info: unknown;
  try {
    info = JSON.parse(textOf(message.data));
  } catch {
    return null;
  }
  if (!isJsonObject(info) || info.description !== FISK_SERVICE_DESCRIPTION) return null;
  if (typeof info.name !== "string" || typeof info.id !== "string") return null;
  const endpoints = Array.isArray(info.endpoints) ? info.endpoints.filter(isJsonObject) : [];
  const meta = isJsonObject(info.metadata) ? info.metadata : {};
  return {
    identity: info.name,
    instanceId: info.id,
    ...(typeof meta.instance === "string" ? { instance: meta.instance } : {}),
    version: typeof info.version === "string" ? info.version : "",
    endpoints: endpoints.map((e) => ({ name: String(e.name ?? ""), subject: String(e.subject ?? "") })),
  };
}

/**
 * Lists live agents with the micro protocol: one `$SRV.INFO` to a fresh inbox, every service
 * answers, and the read stops when nobody has answered for `stallMs`, at `timeoutMs` overall, or
 * at once when no service exists at all (503).
 */
export function listAgents(deps: FiskClientDeps, opts: ListingOptions = {}): Promise<AgentListing> {
  const { port, clock, scheduler } = deps;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_LISTING_TIMEOUT_MS;
  const stallMs = opts.stallMs ?? DEFAULT_LISTING_STALL_MS;
  const started = clock.now();
  const agents: AgentSummary[] = [];
  let otherServices = 0;
  return new Promise((resolve) => {
    let done = false;
    let cancelStall: () => void = () => undefined;
    let cancelOverall: () => void = () => undefined;
    let error: string | undefined;
    const inbox = freshInbox(deps.random);
    const sub = port.subscribe(inbox, (message) => {
      if (done) return;
      if (message.status?.code === 503) return finish();
      const agent = summary(message);
      if (agent) agents.push(agent);
      else otherServices++;
      cancelStall();
      cancelStall = scheduler.after(stallMs, finish);
    });
    cancelOverall = scheduler.after(timeoutMs, finish);
    const onAbort = (): void => finish();
    function finish(): void {
      if (done) return;
      done = true;
      cancelStall();
      cancelOverall();
      sub.unsubscribe();
      opts.signal?.removeEventListener("abort", onAbort);
      agents.sort((a, b) => a.identity.localeCompare(b.identity) || a.instanceId.localeCompare(b.instanceId));
      resolve({ agents, otherServices, elapsedMs: clock.now() - started, ...(error !== undefined ? { error } : {}) });
    }
    if (opts.signal?.aborted) return finish();
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      port.publish(MICRO_INFO_SUBJECT, new Uint8Array(0), { reply: inbox });
    } catch (err) {
      error = (err as Error).message;
      return finish();
    }
    port.flush().catch((err: unknown) => {
      error = (err as Error).message;
      finish();
    });
  });
}

/** What one agent's micro service says of itself: which endpoints (discovery, tool, task) it serves. */
export type AgentInfo =
  | { readonly kind: "info"; readonly agent: AgentSummary; readonly subject: string }
  /** Something answered, but not a fisk-ai agent's service info. */
  | { readonly kind: "not-an-agent"; readonly subject: string }
  | { readonly kind: "no-responders"; readonly subject: string }
  | { readonly kind: "timeout"; readonly subject: string }
  | { readonly kind: "error"; readonly subject: string; readonly message: string };

/** `$SRV.INFO.<identity>`: one instance's service info, the endpoints it serves among them. */
export async function agentInfo(deps: FiskClientDeps, identity: string, timeoutMs = DEFAULT_LISTING_TIMEOUT_MS): Promise<AgentInfo> {
  const subject = `${MICRO_INFO_SUBJECT}.${identity}`;
  const reply = await plainRequest(deps.port, subject, new Uint8Array(0), timeoutMs);
  switch (reply.kind) {
    case "no-responders":
    case "timeout":
      return { kind: reply.kind, subject };
    case "error":
      return { kind: "error", subject, message: reply.message };
    case "refused":
      return { kind: "not-an-agent", subject };
    case "reply": {
      const agent = summary(reply.message);
      return agent ? { kind: "info", agent, subject } : { kind: "not-an-agent", subject };
    }
  }
}
