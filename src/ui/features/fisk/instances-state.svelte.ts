import type { InstanceListing, InstanceLoad } from "../../../core/fisk/client/index.ts";
import { identityProblem } from "./agents-state.svelte.ts";
import { NOT_CONNECTED, type FiskSource } from "./fisk-api.ts";

/** One instance's row: its name, its load per endpoint, in the words the table shows. */
export interface InstanceRow {
  readonly name: string;
  readonly serviceId: string;
  readonly requests: number;
  readonly errors: number;
  /** "2 / 8": in flight against capacity, for tool calls and tasks. */
  readonly tools: string;
  readonly tasks: string;
  readonly averageMs: string;
  readonly lastError: string;
}

const load = (inFlight: number | undefined, capacity: number | undefined): string => (inFlight === undefined ? "—" : `${inFlight} / ${capacity ?? "?"}`);

export function instanceRow(i: InstanceLoad): InstanceRow {
  const tool = i.endpoints.find((e) => e.name === "tool");
  const task = i.endpoints.find((e) => e.name === "task");
  const busiest = i.endpoints.filter((e) => e.requests > 0);
  const average = busiest.length === 0 ? 0 : busiest.reduce((n, e) => n + e.averageMs * e.requests, 0) / busiest.reduce((n, e) => n + e.requests, 0);
  return {
    name: i.instance ?? "(unnamed)",
    serviceId: i.serviceId,
    requests: i.endpoints.reduce((n, e) => n + e.requests, 0),
    errors: i.endpoints.reduce((n, e) => n + e.errors, 0),
    tools: load(tool?.inFlight, tool?.capacity),
    tasks: load(task?.inFlight, task?.capacity),
    averageMs: average === 0 ? "—" : average < 10 ? average.toFixed(2) : average.toFixed(0),
    lastError: i.endpoints.map((e) => e.lastError).find((e) => e !== "") ?? "",
  };
}

/** Every instance of one identity and its load, from `$SRV.STATS.<identity>`; optionally kept fresh. */
export class InstancesState {
  identity = $state("");
  listing = $state.raw<InstanceListing | null>(null);
  loading = $state(false);
  error = $state<string | null>(null);
  /** Ask again every `intervalMs` while on. */
  live = $state(false);
  readonly rows: readonly InstanceRow[] = $derived(this.listing?.kind === "instances" ? this.listing.instances.map(instanceRow) : []);
  readonly #source: FiskSource;

  constructor(source: FiskSource) {
    this.#source = source;
  }

  async load(identity = this.identity.trim()): Promise<void> {
    const problem = identityProblem(identity);
    const client = this.#source.client();
    this.error = problem ?? (client ? null : NOT_CONNECTED);
    if (problem || !client) return;
    this.identity = identity;
    this.loading = true;
    try {
      const listing = await client.listInstances(identity);
      // A slower answer about another identity must not replace the one asked for last.
      if (identity === this.identity) this.listing = listing;
    } catch (err) {
      this.error = `Asking ${identity}'s instances failed: ${(err as Error).message}`;
    } finally {
      this.loading = false;
    }
  }

  /** While `live` is on, asks again every `intervalMs`; returns the stop function. */
  watch(intervalMs = 2000): () => void {
    const timer = setInterval(() => {
      if (this.live && !this.loading && this.identity !== "") void this.load(this.identity);
    }, intervalMs);
    return () => clearInterval(timer);
  }
}
