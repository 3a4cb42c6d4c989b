/**
 * Plain-fetch calls for driving the peers from tests: the raw texts on the wire (request body,
 * response body, each SSE frame's data) are kept, so every one can be validated.
 */
import { SseReader } from "../../../server/relay/sse-parser.ts";

export interface Exchange {
  /** The request body as sent ("" for a GET). */
  readonly request: string;
  readonly status: number;
  readonly headers: Headers;
  readonly contentType: string;
  /** The whole response body (for a stream, its raw text). */
  readonly body: string;
  /** Each SSE event's data, when the response was text/event-stream; else empty. */
  readonly frames: readonly string[];
}

export interface CallOptions {
  readonly headers?: Readonly<Record<string, string>>;
  /** Stop reading a stream once this says so (the connection is then dropped). */
  readonly stopWhen?: (frame: string, index: number) => boolean;
  readonly signal?: AbortSignal;
}

let nextId = 1;

/** A JSON-RPC request text with a fresh numeric id (or the one given). */
export function rpc(method: string, params: unknown, id: number | string = nextId++): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method, params });
}

export function post(url: string, body: string, options: CallOptions = {}): Promise<Exchange> {
  return call(url, { method: "POST", body, headers: { "content-type": "application/json", ...options.headers } }, body, options);
}

export function get(url: string, options: CallOptions = {}): Promise<Exchange> {
  return call(url, { method: "GET", headers: { ...options.headers } }, "", options);
}

async function call(url: string, init: RequestInit, request: string, options: CallOptions): Promise<Exchange> {
  const response = await fetch(url, { ...init, ...(options.signal ? { signal: options.signal } : {}) });
  const contentType = response.headers.get("content-type") ?? "";
  if (!contentType.startsWith("text/event-stream") || !response.body) {
    return { request, status: response.status, headers: response.headers, contentType, body: await response.text(), frames: [] };
  }
  const { raw, frames } = await readStream(response.body, options.stopWhen);
  return { request, status: response.status, headers: response.headers, contentType, body: raw, frames };
}

/** Reads SSE events as they come until the stream ends or `stopWhen` says stop. */
async function readStream(body: ReadableStream<Uint8Array>, stopWhen?: (frame: string, index: number) => boolean): Promise<{ raw: string; frames: string[] }> {
  const frames: string[] = [];
  let stop = false;
  const parser = new SseReader((event) => {
    if (stop || event.data === "") return;
    frames.push(event.data);
    if (stopWhen?.(event.data, frames.length - 1)) stop = true;
  });
  const decoder = new TextDecoder();
  let raw = "";
  const reader = body.getReader();
  try {
    while (!stop) {
      const { done, value } = await reader.read();
      if (done) {
        parser.end();
        break;
      }
      raw += decoder.decode(value, { stream: true });
      parser.push(value);
    }
  } finally {
    if (stop) await reader.cancel();
    else reader.releaseLock();
  }
  return { raw, frames };
}

/** The `result` of a JSON-RPC response text (throws with the text when there is none). */
export function resultOf<T = Record<string, unknown>>(text: string): T {
  const parsed = JSON.parse(text) as { result?: T; error?: unknown };
  if (parsed.result === undefined) throw new Error(`no result in ${text}`);
  return parsed.result;
}

/** The `error` of a JSON-RPC response text (throws with the text when there is none). */
export function errorOf(text: string): { code: number; message: string; data?: unknown } {
  const parsed = JSON.parse(text) as { error?: { code: number; message: string; data?: unknown } };
  if (!parsed.error) throw new Error(`no error in ${text}`);
  return parsed.error;
}
