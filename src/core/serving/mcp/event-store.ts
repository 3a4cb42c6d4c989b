import type { EventStore, JSONRPCMessage } from "@modelcontextprotocol/server";

interface StoredEvent {
  readonly id: string;
  readonly stream: string;
  readonly message: JSONRPCMessage;
  readonly chars: number;
}

export interface EventStoreLimits {
  readonly maxEvents?: number;
  readonly maxChars?: number;
}

/**
 * One session's recent SSE events, so a client whose stream broke can reconnect with
 * Last-Event-ID and get what it missed. Bounded by count and size: the oldest go first, and a
 * client too far behind is told its event id is unknown.
 */
export class BoundedEventStore implements EventStore {
  readonly #maxEvents: number;
  readonly #maxChars: number;
  #events: StoredEvent[] = [];
  #chars = 0;
  #next = 0;

  constructor(limits: EventStoreLimits = {}) {
    this.#maxEvents = limits.maxEvents ?? 1_000;
    this.#maxChars = limits.maxChars ?? 4 * 1024 * 1024;
  }

  get size(): number {
    return this.#events.length;
  }

  async storeEvent(stream: string, message: JSONRPCMessage): Promise<string> {
    const id = `${++this.#next}.${stream}`;
    const chars = JSON.stringify(message).length;
    this.#events.push({ id, stream, message, chars });
    this.#chars += chars;
    let drop = 0;
    while (this.#events.length - drop > this.#maxEvents || (this.#chars > this.#maxChars && this.#events.length - drop > 1)) {
      this.#chars -= this.#events[drop]!.chars;
      drop++;
    }
    if (drop > 0) this.#events = this.#events.slice(drop);
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.#events.find((event) => event.id === eventId)?.stream;
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const at = this.#events.findIndex((event) => event.id === lastEventId);
    if (at < 0) throw new Error(`event ${lastEventId} is unknown or too old to replay`);
    const stream = this.#events[at]!.stream;
    for (const event of this.#events.slice(at + 1)) {
      // Priming events carry no message; they only give the client a cursor.
      if (event.stream === stream && Object.keys(event.message).length > 0) await send(event.id, event.message);
    }
    return stream;
  }
}
