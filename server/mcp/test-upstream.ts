/**
 * Helpers for the relay's msw tests; imported by tests only. A relay peer under test with every
 * event it emits, and scripted response bodies (chunks, pauses, a break) that real servers do
 * not produce on demand.
 */
import { startStreamableHttp } from "./http-relay.ts";
import type { Peer, PeerEvent } from "./relay-peer.ts";
import { DEFAULT_LIMITS, type RelayLimits } from "../relay/relay-limits.ts";

export const ORIGIN = "http://mcp.test";
export const URL_MCP = `${ORIGIN}/mcp`;
export const SECRET = "Bearer relay-test-secret-7f3a";

export const INIT = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } } };
export const INIT_RESULT = { jsonrpc: "2.0", id: 1, result: { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "msw", version: "0" } } };

export interface RelayUnderTest {
  readonly peer: Peer;
  readonly events: PeerEvent[];
  readonly closedWith: string[];
  send(frame: unknown): Promise<void>;
  /** Resolves with the first event `probe` picks, or fails naming what it waited for. */
  waitFor<T>(probe: (events: PeerEvent[]) => T | undefined, what: string, ms?: number): Promise<T>;
  messages(): unknown[];
  errors(): Extract<PeerEvent, { type: "error" }>[];
  notes(): string[];
}

export function relayUnderTest(limits: Partial<RelayLimits> = {}, url = URL_MCP): RelayUnderTest {
  const events: PeerEvent[] = [];
  const closedWith: string[] = [];
  const spec = { transport: "streamable-http" as const, url: new URL(url), headers: { Authorization: SECRET }, limits: { ...DEFAULT_LIMITS, ...limits } };
  const peer = startStreamableHttp(spec, { emit: (e) => events.push(e), closed: (r) => closedWith.push(r) });
  return {
    peer,
    events,
    closedWith,
    send: (frame) => peer.send(Buffer.from(typeof frame === "string" ? frame : JSON.stringify(frame))),
    async waitFor(probe, what, ms = 5000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const got = probe(events);
        if (got !== undefined) return got;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; events: ${JSON.stringify(events).slice(0, 3000)}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    messages: () => events.flatMap((e) => (e.type === "message" ? [JSON.parse(e.text) as unknown] : [])),
    errors: () => events.filter((e): e is Extract<PeerEvent, { type: "error" }> => e.type === "error"),
    notes: () => events.flatMap((e) => (e.type === "note" ? [e.text] : [])),
  };
}

/** A step of a scripted body: bytes to send, a pause, or a break of the stream. */
export type Step = string | Uint8Array | { readonly wait: number } | { readonly fail: string };

/** A body that plays `steps` in order, then ends (or stays open with `hang`). */
export function scripted(steps: readonly Step[], options: { hang?: boolean } = {}): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  let stopped = false;
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      for (const step of steps) {
        if (stopped) return;
        if (typeof step === "string") controller.enqueue(enc.encode(step));
        else if (step instanceof Uint8Array) controller.enqueue(step);
        else if ("wait" in step) await new Promise((r) => setTimeout(r, step.wait));
        else {
          // A stream that errors drops what is still queued; a network hands over what arrived first.
          await new Promise((r) => setTimeout(r, 30));
          return controller.error(new Error(step.fail));
        }
      }
      if (!options.hang && !stopped) controller.close();
    },
    cancel() {
      stopped = true;
    },
  });
}

export const SSE = { "content-type": "text/event-stream" };
export const JSON_TYPE = { "content-type": "application/json" };

/** One SSE event carrying `message`, with an optional id. */
export const event = (message: unknown, id?: string) => `${id !== undefined ? `id: ${id}\n` : ""}data: ${JSON.stringify(message)}\n\n`;
