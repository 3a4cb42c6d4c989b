import type { PushReceiverApi, ReceivedNotification, ReceiverMade, ReceiverRead } from "../../../core/a2a/push-receiver.ts";
import { BackendError } from "../../../core/backend/backend-client.ts";

/** The backend's receivers, in memory: what the page made, read and deleted, and what "agents" posted. */
export class FakeReceivers implements PushReceiverApi {
  readonly made: string[] = [];
  readonly removed: { id: string; keepalive: boolean }[] = [];
  readonly reads: { id: string; after: number }[] = [];
  readonly #held = new Map<string, { notifications: ReceivedNotification[]; seq: number; dropped: number }>();

  async create(): Promise<ReceiverMade> {
    const id = `r${this.made.length + 1}`;
    this.made.push(id);
    this.#held.set(id, { notifications: [], seq: 0, dropped: 0 });
    return { id, token: `token-${id}`, path: `/hooks/a2a/${id}` };
  }

  async read(id: string, after: number): Promise<ReceiverRead> {
    this.reads.push({ id, after });
    const held = this.#held.get(id);
    if (!held) throw new BackendError(404, "unknown_receiver", `no push receiver "${id}"`);
    return { notifications: held.notifications.filter((n) => n.seq > after), dropped: held.dropped };
  }

  async remove(id: string, options: { keepalive?: boolean } = {}): Promise<void> {
    this.removed.push({ id, keepalive: options.keepalive === true });
    if (!this.#held.delete(id)) throw new BackendError(404, "unknown_receiver", `no push receiver "${id}"`);
  }

  /** What an agent POSTs to the hook: `value` as JSON, or a string sent as it is. */
  post(id: string, value: unknown, at: number): void {
    const held = this.#held.get(id);
    if (!held) throw new Error(`no receiver ${id}`);
    const text = typeof value === "string" ? value : JSON.stringify(value);
    held.notifications.push({ seq: ++held.seq, at, headers: { "content-type": "application/json" }, text });
  }

  /** The backend's bound lets the oldest go. */
  drop(id: string, count: number): void {
    const held = this.#held.get(id);
    if (!held) throw new Error(`no receiver ${id}`);
    held.notifications.splice(0, count);
    held.dropped += count;
  }

  /** The backend forgets it (a restart, or the bound making room for a newer one). */
  forget(id: string): void {
    this.#held.delete(id);
  }
}
