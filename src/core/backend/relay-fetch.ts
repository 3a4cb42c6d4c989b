/**
 * A fetch that goes out through the backend's HTTP relay, for agents the page cannot reach
 * itself. It reads the relay's NDJSON (`head`, base64 `chunk`s, `end` or `error`) back into a
 * Response whose body holds the upstream bytes exactly; a relay error before the head rejects
 * with the step's message, one after it breaks the body with that message.
 */
import { isJsonObject } from "../json/index.ts";
import { LineSplitter } from "../framing/line-splitter.ts";
import { decodeBase64 } from "../wire/index.ts";
import type { BackendClient } from "./backend-client.ts";

export type RelayFetch = (url: string, init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal }) => Promise<Response>;

export interface RelayLimitsInput {
  readonly headersTimeoutMs?: number;
  readonly idleTimeoutMs?: number;
  readonly maxMessageBytes?: number;
}

export class RelayRefusedError extends Error {}

/** `fetch` is the page's own fetch (to the backend); `limits` are sent with every request. */
export function relayFetch(backend: BackendClient, fetch: typeof globalThis.fetch, limits?: RelayLimitsInput): RelayFetch {
  const { baseUrl, token } = backend.connection();
  return async (url, init) => {
    const res = await fetch(`${baseUrl}/api/relay/http`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ url, method: init.method, headers: init.headers, ...(init.body !== undefined ? { body: init.body } : {}), ...(limits ? { limits } : {}) }),
      ...(init.signal ? { signal: init.signal } : {}),
    });
    if (!res.ok || !res.body) {
      const text = await res.text().catch(() => "");
      let message = `the backend relay answered HTTP ${res.status}`;
      try {
        const parsed: unknown = JSON.parse(text);
        if (isJsonObject(parsed) && isJsonObject(parsed.error) && typeof parsed.error.message === "string") message = `the backend relay refused the request: ${parsed.error.message}`;
      } catch {
        // Not JSON: the status says enough.
      }
      throw new RelayRefusedError(message);
    }
    return readRelayed(res.body);
  };
}

/** Turns the relay's NDJSON stream into the upstream Response. */
async function readRelayed(body: ReadableStream<Uint8Array>): Promise<Response> {
  const lines = body.pipeThrough(new TextDecoderStream() as ReadableWritablePair<string, Uint8Array>).getReader();
  const splitter = new LineSplitter();
  const ready: string[] = [];
  let ended = false;
  const next = async (): Promise<Record<string, unknown> | undefined> => {
    while (ready.length === 0) {
      if (ended) return undefined;
      const { value, done } = await lines.read();
      if (done) {
        ended = true;
        ready.push(...splitter.finish());
      } else ready.push(...splitter.push(value));
    }
    const parsed: unknown = JSON.parse(ready.shift()!);
    return isJsonObject(parsed) ? parsed : undefined;
  };
  const head = await next();
  if (!head) throw new Error("the backend relay ended before the agent answered");
  if (head.type === "error") throw new Error(String(head.message));
  if (head.type !== "head" || typeof head.status !== "number") throw new Error("the backend relay sent something unexpected");
  const headers = new Headers(isJsonObject(head.headers) ? (head.headers as Record<string, string>) : {});
  if (typeof head.refused === "string") headers.set("x-patchbay-refused", head.refused);
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const line = await next();
      if (!line || line.type === "end") return controller.close();
      if (line.type === "chunk" && typeof line.b64 === "string") return controller.enqueue(decodeBase64(line.b64));
      controller.error(new Error(line.type === "error" ? String(line.message) : "the backend relay sent something unexpected"));
    },
    cancel: () => lines.cancel(),
  });
  // A status the Response constructor refuses (1xx, or over 599) cannot be relayed as one.
  const status = head.status >= 200 && head.status <= 599 ? head.status : 502;
  return new Response(status === 204 || status === 205 || status === 304 ? null : stream, { status, headers });
}
