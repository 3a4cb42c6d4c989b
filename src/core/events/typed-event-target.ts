/**
 * A typed wrapper over the standard EventTarget (present in browsers and Node), so stores in
 * core can be observed by any UI layer without depending on one.
 */
export type EventMap = Record<string, unknown>;

export type Listener<T> = (detail: T) => void;

export class TypedEventTarget<M extends EventMap> {
  readonly #target = new EventTarget();
  readonly #wrapped = new Map<Listener<never>, EventListener>();

  /** Subscribe; returns the function that unsubscribes. */
  on<K extends keyof M & string>(type: K, listener: Listener<M[K]>): () => void {
    const wrapped: EventListener = (event) => listener((event as CustomEvent<M[K]>).detail);
    this.#wrapped.set(listener as Listener<never>, wrapped);
    this.#target.addEventListener(type, wrapped);
    return () => {
      this.#target.removeEventListener(type, wrapped);
      this.#wrapped.delete(listener as Listener<never>);
    };
  }

  protected emit<K extends keyof M & string>(type: K, detail: M[K]): void {
    this.#target.dispatchEvent(new CustomEvent(type, { detail }));
  }
}

/**
 * A store holding one immutable snapshot. Every change replaces the snapshot and emits
 * `change`, so adapters can compare by identity and re-render cheaply.
 */
export class SnapshotStore<S> extends TypedEventTarget<{ change: S }> {
  #state: S;

  constructor(initial: S) {
    super();
    this.#state = initial;
  }

  get snapshot(): S {
    return this.#state;
  }

  protected set(next: S): void {
    if (Object.is(next, this.#state)) return;
    this.#state = next;
    this.emit("change", next);
  }

  protected update(fn: (current: S) => S): void {
    this.set(fn(this.#state));
  }
}
