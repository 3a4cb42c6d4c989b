import type { Clock, Scheduler } from "../../../core/env/index.ts";
import type { DocumentStore } from "../../../core/persist/document-store.ts";
import { pageLifetime } from "../../lib/page-lifetime.svelte.ts";
import { CollectionsState } from "./collections-state.svelte.ts";
import { type HarnessPort, RunState } from "./run-state.svelte.ts";

export interface CollectionsDeps {
  readonly storage: DocumentStore;
  readonly harness: HarnessPort;
  readonly scheduler: Scheduler;
  readonly clock: Clock;
}

/**
 * The Collections workbench's state: the collection in the editor and its runs. It outlives the
 * component, so a run keeps being followed, and earlier runs stay comparable, while another
 * workbench is open.
 */
export class CollectionsSession {
  readonly collections: CollectionsState;
  readonly run: RunState;
  readonly clock: Clock;

  constructor(deps: CollectionsDeps) {
    this.collections = new CollectionsState(deps.storage, undefined, () => this.run.reset());
    this.run = new RunState(deps.harness, deps.scheduler, () => this.collections.collection);
    this.clock = deps.clock;
  }
}

const sessions = new WeakMap<object, CollectionsSession>();

/** The one session per app (keyed by its services object), made on first use. */
export function collectionsSession(owner: object, deps: () => CollectionsDeps): CollectionsSession {
  let session = sessions.get(owner);
  if (!session) {
    session = pageLifetime(() => new CollectionsSession(deps()));
    sessions.set(owner, session);
  }
  return session;
}
