import type { FetchLike } from "../../../core/a2a/index.ts";
import type { Verdict } from "../../../core/validation/types.ts";
import type { WireFrameInput } from "../../../core/wire/index.ts";
import type { A2aDeps } from "./a2a-state.svelte.ts";

/** One request the fake agent received. */
export interface Sent {
  readonly url: string;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

export type Answer = (sent: Sent, json: unknown) => Response | Promise<Response>;

export const json = (value: unknown, status = 200): Response => new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });

/** An event stream of these JSON values; `cut` ends it mid-event. */
export function sse(values: readonly unknown[], cut = false): Response {
  const text = values.map((v) => `data: ${JSON.stringify(v)}\n\n`).join("") + (cut ? 'data: {"jsonrpc":' : "");
  return new Response(text, { headers: { "content-type": "text/event-stream" } });
}

export const rpc = (id: unknown, result: unknown) => ({ jsonrpc: "2.0", id, result });

/** A scripted agent behind a fetch: the first route whose test passes answers; anything else is a 404. */
export class FakeAgent {
  readonly sent: Sent[] = [];
  readonly routes: { test: (s: Sent, json: unknown) => boolean; answer: Answer }[] = [];

  on(test: (s: Sent, json: unknown) => boolean, answer: Answer): this {
    this.routes.push({ test, answer });
    return this;
  }

  readonly fetch: FetchLike = async (url, init) => {
    const sent: Sent = { url, method: init.method, headers: { ...init.headers }, ...(init.body !== undefined ? { body: init.body } : {}) };
    this.sent.push(sent);
    let body: unknown;
    try {
      body = init.body ? JSON.parse(init.body) : undefined;
    } catch {
      body = undefined;
    }
    const route = this.routes.find((r) => r.test(sent, body));
    return route ? route.answer(sent, body) : json({ error: "not found" }, 404);
  };
}

export const VALID: Verdict = { status: "valid", family: "a2a", packId: "a2a/v1.0", packLabel: "A2A v1.0", kindLabel: "Agent Card", confidence: 1, evidence: [], issues: [], notes: [], candidates: [], overridden: false };

/** Deps over `agent` for both ways out; the log and the verdicts are kept for assertions. */
export function fakeDeps(agent: FakeAgent, verdict: (text: string, packId?: string) => Verdict = () => VALID) {
  const frames: WireFrameInput[] = [];
  const checked: { text: string; packId?: string }[] = [];
  const direct: FetchLike = async () => {
    throw new TypeError("Failed to fetch");
  };
  let t = 0;
  let id = 0;
  const deps: A2aDeps = {
    direct,
    relay: agent.fetch,
    now: () => (t += 5),
    wallNow: () => 1_700_000_000_000 + t,
    record: (f) => void frames.push(f),
    validate: async (text, override) => {
      checked.push({ text, ...(override ? { packId: override.packId } : {}) });
      return verdict(text, override?.packId);
    },
    newId: () => `id-${++id}`,
  };
  return { deps, frames, checked };
}

/** Every header value and payload the log holds, as one string to search for secrets. */
export function logText(frames: readonly WireFrameInput[]): string {
  return frames.map((f) => `${JSON.stringify(f.headers ?? {})} ${new TextDecoder().decode(f.bytes)}`).join("\n");
}
