/**
 * An incremental text/event-stream reader: text goes in as it arrives, in chunks of any size,
 * and whole events come out. The direct MCP transport and the A2A exchange use it to log each event's data verbatim.
 */
export interface SseEvent {
  /** The event name; empty when the server gave none (a "message"). */
  readonly event: string;
  /** The data lines joined with "\n", exactly as sent. */
  readonly data: string;
  readonly id?: string;
}

export class SseSplitter {
  #buffer = "";
  #event = "";
  #data: string[] = [];
  #id: string | undefined;
  #started = false;

  /** Feeds decoded text; returns the events it completed. */
  push(text: string): SseEvent[] {
    let chunk = text;
    if (!this.#started && chunk !== "") {
      this.#started = true;
      if (chunk.startsWith("\uFEFF")) chunk = chunk.slice(1);
    }
    this.#buffer += chunk;
    const out: SseEvent[] = [];
    // A trailing "\r" may be the first half of a "\r\n" split across chunks: keep it for the next push.
    const cut = this.#buffer.endsWith("\r") ? this.#buffer.length - 1 : this.#buffer.length;
    const lines = this.#buffer.slice(0, cut).split(/\r\n|\r|\n/);
    this.#buffer = (lines.pop() ?? "") + this.#buffer.slice(cut);
    for (const line of lines) {
      const event = this.#line(line);
      if (event) out.push(event);
    }
    return out;
  }

  /** At the end of the stream: an event that never got its closing blank line, if any. */
  finish(): SseEvent | undefined {
    const rest = this.#buffer.replace(/\r$/, "");
    this.#buffer = "";
    if (rest !== "") this.#line(rest);
    return this.#data.length > 0 ? this.#take() : undefined;
  }

  #line(line: string): SseEvent | undefined {
    if (line === "") return this.#data.length > 0 ? this.#take() : this.#reset();
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const name = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (name === "data") this.#data.push(value);
    else if (name === "event") this.#event = value;
    else if (name === "id" && !value.includes("\0")) this.#id = value;
    return undefined;
  }

  #take(): SseEvent {
    const event: SseEvent = { event: this.#event, data: this.#data.join("\n"), ...(this.#id !== undefined ? { id: this.#id } : {}) };
    this.#reset();
    return event;
  }

  #reset(): undefined {
    this.#event = "";
    this.#data = [];
    return undefined;
  }
}
