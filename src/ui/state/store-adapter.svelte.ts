import { createSubscriber } from "svelte/reactivity";
import type { SnapshotStore } from "../../core/events/index.ts";

/**
 * Reactive view of a core SnapshotStore: reading `.current` inside an effect or template
 * subscribes to the store for as long as something is reading it.
 */
export class StoreView<S> {
  readonly #store: SnapshotStore<S>;
  readonly #subscribe: () => void;

  constructor(store: SnapshotStore<S>) {
    this.#store = store;
    this.#subscribe = createSubscriber((update) => store.on("change", update));
  }

  get current(): S {
    this.#subscribe();
    return this.#store.snapshot;
  }
}
