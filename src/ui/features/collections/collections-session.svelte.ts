import type { Clock, Scheduler } from "../../../core/env/index.ts";
import type { DocumentStore } from "../../../core/persist/document-store.ts";
import { pageLifetime } from "../../lib/page-lifetime.svelte.ts";
import { CollectionsState } from "./collections-state.svelte.ts";
import { DiffState } from "./diff-state.svelte.ts";
import { type HarnessPort, RunState } from "./run-state.svelte.ts";

export type CollectionsView = "collection" | "diff";

export interface CollectionsDeps {
  readonly storage: DocumentStore;
  readonly harness: HarnessPort;
  readonly scheduler: Scheduler;
  readonly clock: Clock;
}

/**
 * The Collections workbench's state: the collection in the editor, its runs, and the Diff view's
 * inputs. It outlives the component, so a run keeps being followed, and earlier runs stay
 * comparable, while another workbench is open.
 */
export class CollectionsSession {
  readonly collections: CollectionsState;
  readonly run: RunState;
  readonly clock: Clock;
  readonly diff = new DiffState();
  view = $state<CollectionsView>("collection");

  constructor(deps: CollectionsDeps) {
    this.collections = new CollectionsState(deps.storage, undefined, () => {
      this.run.reset();
      this.view = "collection";
    });
    this.run = new RunState(deps.harness, deps.scheduler, () => this.collections.collection);
    this.clock = deps.clock;
  }

  /** On mount: opens the collection another workbench handed over, or reads the open one again. */
  async arrive(handedOver: string | null): Promise<void> {
    if (handedOver === null) return this.collections.reload();
    this.view = "collection";
    await this.collections.openNamed(handedOver);
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
