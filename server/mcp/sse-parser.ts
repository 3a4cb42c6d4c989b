/** Reads a text/event-stream body into events (event name and joined data lines). */

export interface SseEvent {
  readonly event: string;
  readonly data: string;
  readonly id?: string;
}

/** Read the whole stream, calling `onEvent` per dispatched event; resolves when it ends. */
export async function readSse(body: ReadableStream<Uint8Array>, onEvent: (event: SseEvent) => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = "";
  let event = "";
  let data: string[] = [];
  let id: string | undefined;

  const dispatch = () => {
    if (data.length > 0) onEvent({ event: event || "message", data: data.join("\n"), ...(id !== undefined ? { id } : {}) });
    event = "";
    data = [];
  };

  const field = (line: string) => {
    if (line === "") return dispatch();
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const name = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (name === "data") data.push(value);
    else if (name === "event") event = value;
    else if (name === "id") id = value;
  };

  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      // A trailing "\r" may be the first half of a "\r\n" split across chunks: keep it for the next read.
      const cut = !done && buffer.endsWith("\r") ? buffer.length - 1 : buffer.length;
      const lines = buffer.slice(0, cut).split(/\r\n|\r|\n/);
      buffer = (lines.pop() ?? "") + buffer.slice(cut);
      for (const line of lines) field(line);
      if (done) break;
    }
    if (buffer !== "") field(buffer);
    dispatch();
  } finally {
    reader.releaseLock();
  }
}
