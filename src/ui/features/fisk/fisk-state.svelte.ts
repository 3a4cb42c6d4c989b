import type { RawExchange, RawInput } from "../../../core/fisk/client/index.ts";
import { systemScheduler, type Scheduler } from "../../../core/env/index.ts";
import type { NatsSession } from "../../../core/nats/index.ts";
import type { AppServices } from "../../state/services.ts";
import { AgentsState } from "./agents-state.svelte.ts";
import { NOT_CONNECTED, type FiskSource } from "./fisk-api.ts";
import { appFiskSource } from "./fisk-source.ts";
import { ImportState } from "./import-state.svelte.ts";
import { InstancesState } from "./instances-state.svelte.ts";
import { TapState } from "./tap-state.svelte.ts";
import { TaskState } from "./task-state.svelte.ts";
import { ToolCallState } from "./tool-call-state.svelte.ts";
import { pageLifetime } from "../../lib/page-lifetime.svelte.ts";

export type FiskTab = "agents" | "call" | "tasks" | "tap" | "import";

/** Everything the fisk-ai panels hold; it outlives the panels, so a running task or tap goes on. */
export class FiskState {
  readonly agents: AgentsState;
  readonly instances: InstancesState;
  readonly call: ToolCallState;
  readonly tasks: TaskState;
  readonly tap: TapState;
  readonly importer: ImportState;
  readonly #source: FiskSource;

  constructor(source: FiskSource, scheduler: Scheduler) {
    this.#source = source;
    this.agents = new AgentsState(source);
    this.instances = new InstancesState(source);
    this.call = new ToolCallState(source, this.agents);
    this.tasks = new TaskState(source, this.agents);
    this.tap = new TapState(source, scheduler);
    this.importer = new ImportState(source);
  }

  /** Raw mode of the Request tab: any bytes to any subject, every reply until silence. */
  sendRaw(input: RawInput): Promise<RawExchange> {
    const client = this.#source.client();
    if (!client) return Promise.resolve({ entries: [], end: "send-failed", elapsedMs: 0, inbox: "", error: NOT_CONNECTED });
    return client.sendRaw(input);
  }

  /** A closed connection ends the tap: its subscriptions went with it. */
  watch(session: NatsSession): () => void {
    return session.on("change", () => {
      const state = session.snapshot.state;
      if (this.tap.running && state !== "connected" && state !== "reconnecting") {
        this.tap.stop(`The tap stopped: the NATS connection is ${state}.`);
      }
    });
  }
}

const perApp = new WeakMap<AppServices, FiskState>();

/** The one FiskState of this page, made on first use. */
export function fiskStateFor(services: AppServices): FiskState {
  let state = perApp.get(services);
  if (!state) {
    // Made in a root of its own: its derived values must outlive the component that asked first.
    state = pageLifetime(() => {
      const made = new FiskState(appFiskSource(services), systemScheduler());
      made.watch(services.nats);
      return made;
    });
    perApp.set(services, state);
  }
  return state;
}
