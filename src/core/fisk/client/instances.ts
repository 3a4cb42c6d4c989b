import { isJsonObject } from "../../json/index.ts";
import { isValidIdentityName } from "../codec/index.ts";
import { freshInbox, textOf, type FiskClientDeps } from "./deps.ts";
import { DEFAULT_LISTING_STALL_MS, DEFAULT_LISTING_TIMEOUT_MS } from "./agent-listing.ts";

/**
 * Every instance of one identity, with its load: `$SRV.STATS.<identity>` answered by each process
 * serving it (no queue group on the micro control subjects). Per endpoint: requests, errors and
 * the last error; Patchbay's instances also report what is in flight against their capacity
 * (`data`) and name themselves (`metadata.instance`).
 */

export interface EndpointLoad {
  readonly name: string;
  readonly requests: number;
  readonly errors: number;
  readonly lastError: string;
  /** Average handler time, in ms. */
  readonly averageMs: number;
  readonly inFlight?: number;
  readonly capacity?: number;
}

export interface InstanceLoad {
  /** The micro service id: one per process. */
  readonly serviceId: string;
  /** The fisk-ai instance name, when the instance gives it. */
  readonly instance?: string;
  readonly started?: string;
  readonly endpoints: readonly EndpointLoad[];
  /** Milliseconds after asking that it answered. */
  readonly rttMs: number;
}

export type InstanceListing =
  | { readonly kind: "instances"; readonly identity: string; readonly instances: readonly InstanceLoad[]; readonly elapsedMs: number }
  | { readonly kind: "no-responders"; readonly identity: string }
  | { readonly kind: "error"; readonly identity: string; readonly message: string };

const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

function endpointLoad(e: Record<string, unknown>): EndpointLoad {
  const data = isJsonObject(e.data) ? e.data : {};
  return {
    name: String(e.name ?? ""),
    requests: num(e.num_requests),
    errors: num(e.num_errors),
    lastError: typeof e.last_error === "string" ? e.last_error : "",
    averageMs: num(e.average_processing_time) / 1e6,
    ...(typeof data.in_flight === "number" ? { inFlight: data.in_flight } : {}),
    ...(typeof data.capacity === "number" ? { capacity: data.capacity } : {}),
  };
}

/** One STATS answer, or null when it is not one of this identity's. */
export function instanceLoad(text: string, identity: string, rttMs: number): InstanceLoad | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isJsonObject(value) || value.name !== identity || typeof value.id !== "string") return null;
  const meta = isJsonObject(value.metadata) ? value.metadata : {};
  const endpoints = Array.isArray(value.endpoints) ? value.endpoints.filter(isJsonObject).map(endpointLoad) : [];
  return {
    serviceId: value.id,
    ...(typeof meta.instance === "string" ? { instance: meta.instance } : {}),
    ...(typeof value.started === "string" ? { started: value.started } : {}),
    endpoints,
    rttMs,
  };
}

/** Asks every instance of `identity` for its load; the read ends after `stallMs` of silence. */
export function listInstances(deps: FiskClientDeps, identity: string, opts: { timeoutMs?: number; stallMs?: number } = {}): Promise<InstanceListing> {
  if (!isValidIdentityName(identity)) return Promise.resolve({ kind: "error", identity, message: `agent identity ${JSON.stringify(identity)} is not valid: use letters, digits, '-' and '_' only` });
  const { port, clock, scheduler } = deps;
  const started = clock.now();
  const instances: InstanceLoad[] = [];
  return new Promise((resolve) => {
    let done = false;
    let cancelStall: () => void = () => undefined;
    let cancelAll: () => void = () => undefined;
    const inbox = freshInbox(deps.random);
    const finish = (outcome?: InstanceListing): void => {
      if (done) return;
      done = true;
      cancelStall();
      cancelAll();
      sub.unsubscribe();
      instances.sort((a, b) => (a.instance ?? a.serviceId).localeCompare(b.instance ?? b.serviceId));
      resolve(outcome ?? { kind: "instances", identity, instances, elapsedMs: clock.now() - started });
    };
    const sub = port.subscribe(inbox, (m) => {
      if (done) return;
      if (m.status?.code === 503) return finish(instances.length === 0 ? { kind: "no-responders", identity } : undefined);
      const load = instanceLoad(textOf(m.data), identity, clock.now() - started);
      if (load) instances.push(load);
      cancelStall();
      cancelStall = scheduler.after(opts.stallMs ?? DEFAULT_LISTING_STALL_MS, () => finish());
    });
    cancelAll = scheduler.after(opts.timeoutMs ?? DEFAULT_LISTING_TIMEOUT_MS, () => finish());
    try {
      port.publish(`$SRV.STATS.${identity}`, new Uint8Array(0), { reply: inbox });
    } catch (err) {
      return finish({ kind: "error", identity, message: (err as Error).message });
    }
    port.flush().catch((err: unknown) => finish({ kind: "error", identity, message: (err as Error).message }));
  });
}
