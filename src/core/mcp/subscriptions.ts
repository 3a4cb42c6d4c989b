/**
 * Change notifications on a 2026-07-28 connection: one `subscriptions/listen` stream asking for
 * the list changes the server offers and updates of the resources subscribed to. Changing the set
 * opens a new stream with the new filter and closes the old one; what arrives on it becomes the
 * same events a legacy server's unsolicited notifications do.
 */
import type { Client, McpSubscription, ServerCapabilities, SubscriptionFilter } from "@modelcontextprotocol/client";

export class Subscriptions {
  readonly #client: () => Client;
  readonly #onError: (error: Error) => void;
  #lists: SubscriptionFilter = {};
  readonly #uris = new Set<string>();
  #current: McpSubscription | undefined;
  #stopped = false;

  constructor(client: () => Client, onError: (error: Error) => void) {
    this.#client = client;
    this.#onError = onError;
  }

  /** What the server agreed to send on the open stream. */
  get honored(): SubscriptionFilter | undefined {
    return this.#current?.honoredFilter;
  }

  /** Opens the stream for every list change the server says it announces. */
  async start(capabilities: ServerCapabilities): Promise<void> {
    this.#lists = {
      ...(capabilities.tools?.listChanged ? { toolsListChanged: true } : {}),
      ...(capabilities.prompts?.listChanged ? { promptsListChanged: true } : {}),
      ...(capabilities.resources?.listChanged ? { resourcesListChanged: true } : {}),
    };
    if (Object.keys(this.#lists).length === 0) return;
    await this.#reopen().catch((error: unknown) => this.#onError(new Error(`subscriptions/listen for list changes failed: ${(error as Error).message}`)));
  }

  /** Adds or removes a resource's updates; resolves with what the server agreed to. */
  async resource(uri: string, on: boolean): Promise<Record<string, unknown>> {
    if (on) this.#uris.add(uri);
    else this.#uris.delete(uri);
    let honored: SubscriptionFilter | undefined;
    try {
      honored = await this.#reopen();
    } catch (error) {
      if (on) this.#uris.delete(uri);
      throw new Error(`subscriptions/listen failed: ${(error as Error).message}`);
    }
    if (on && !(honored?.resourceSubscriptions ?? []).includes(uri)) {
      throw new Error(`the server acknowledged subscriptions/listen without updates for ${uri}: it agreed to ${JSON.stringify(honored ?? {})}`);
    }
    return { honoredFilter: honored ?? {} };
  }

  async #reopen(): Promise<SubscriptionFilter | undefined> {
    const previous = this.#current;
    this.#current = undefined;
    await previous?.close().catch(() => undefined);
    if (this.#stopped) return undefined;
    const filter: SubscriptionFilter = { ...this.#lists, ...(this.#uris.size > 0 ? { resourceSubscriptions: [...this.#uris] } : {}) };
    if (Object.keys(filter).length === 0) return undefined;
    const subscription = await this.#client().listen(filter);
    this.#current = subscription;
    void subscription.closed.then((how) => {
      if (how === "remote" && this.#current === subscription && !this.#stopped) this.#onError(new Error("the subscriptions/listen stream ended unexpectedly; change notifications stop until it is opened again"));
    });
    return subscription.honoredFilter;
  }

  stop(): void {
    this.#stopped = true;
    const current = this.#current;
    this.#current = undefined;
    void current?.close().catch(() => undefined);
  }
}
