/**
 * Captures for unit tests, recorded by the project's own recorders into a real WireLog: MCP frames
 * through FrameRecorder, A2A exchanges through `exchange` (a scripted fetch answers), NATS through
 * `loggedPort` over a ScriptedPort. The entries are exactly what the Traffic view holds.
 */
import { exchange, type FetchLike } from "../../a2a/exchange.ts";
import { buildRequest, type HttpRequestSpec } from "../../a2a/requests.ts";
import type { Binding, Dialect, Operation } from "../../a2a/dialect.ts";
import { manualClock, sequentialIds } from "../../env/defaults.ts";
import { ScriptedPort } from "../../fisk/client/testing/scripted-port.ts";
import { FrameRecorder } from "../../mcp/frame-recorder.ts";
import { loggedPort } from "../../nats/logged-port.ts";
import type { NatsMessage } from "../../nats/port.ts";
import { WireLog } from "../../wire/wire-log.ts";

const encoder = new TextEncoder();
const rpc = (message: object): string => JSON.stringify({ jsonrpc: "2.0", ...message });

export interface A2aCall {
  readonly url: string;
  readonly dialect: Dialect;
  readonly binding: Binding;
  readonly operation: Operation;
  readonly input: Parameters<typeof buildRequest>[2];
  /** The answer body, and its content type (JSON unless given). */
  readonly answer: string;
  readonly contentType?: string;
  readonly status?: number;
  readonly rpcId?: string;
}

export class CaptureKit {
  readonly clock = manualClock();
  readonly log = new WireLog(this.clock, 10_000);
  readonly ids = sequentialIds("c");

  entries() {
    return this.log.entries();
  }

  /** An MCP session over `target`: the client's request and the server's answer, `ms` apart. */
  mcp(target: string) {
    const frames = new FrameRecorder(this.log, this.clock, this.ids, () => target);
    return {
      request: (id: number, method: string, params?: object) => frames.out(rpc({ id, method, ...(params ? { params } : {}) })),
      notify: (method: string) => frames.out(rpc({ method })),
      result: (id: number, result: object, ms = 5) => {
        this.clock.advance(ms);
        frames.in(rpc({ id, result }), { status: 200 });
      },
      error: (id: number, code: number, message: string) => frames.in(rpc({ id, error: { code, message } }), { status: 200 }),
      serverAsks: (id: number, method: string) => frames.in(rpc({ id, method })),
    };
  }

  /** One A2A exchange through the real exchange(), the agent's answer scripted. */
  async a2a(call: A2aCall): Promise<void> {
    const spec = buildRequest({ url: call.url, dialect: call.dialect, binding: call.binding }, call.operation, call.input, {}, call.rpcId ?? "1");
    const fetch: FetchLike = async () => new Response(call.answer, { status: call.status ?? 200, headers: { "content-type": call.contentType ?? "application/json" } });
    await exchange({ fetch, now: () => this.clock.now(), record: (f) => void this.log.record(f) }, spec, {
      dialect: call.dialect,
      binding: call.binding,
      ...(call.rpcId !== undefined ? { correlationId: call.rpcId } : {}),
    });
  }

  /** A card fetch as `fetchAgentCard` does it: a GET of the well-known path. */
  async card(base: string, card: object): Promise<void> {
    const spec: HttpRequestSpec = { method: "GET", url: `${base.replace(/\/+$/, "")}/.well-known/agent-card.json`, headers: { Accept: "application/json" }, streaming: false };
    const fetch: FetchLike = async () => new Response(JSON.stringify(card), { status: 200, headers: { "content-type": "application/json" } });
    await exchange({ fetch, now: () => this.clock.now(), record: (f) => void this.log.record(f) }, spec, { dialect: undefined, binding: "rest" });
  }

  /** NATS through loggedPort: a plain request and its scripted reply (or failure). */
  nats() {
    const scripted = new ScriptedPort();
    const port = loggedPort(scripted, this.log, this.clock, this.ids);
    return {
      scripted,
      port,
      request: async (subject: string, payload: string, reply: () => NatsMessage | Promise<NatsMessage>, headers?: Record<string, string[]>) => {
        scripted.onRequest = reply;
        try {
          await port.request(subject, encoder.encode(payload), { timeoutMs: 1000, ...(headers ? { headers } : {}) });
        } catch {
          // The failure is in the log, as the session records it.
        }
      },
      /** A publish with a reply inbox answered by a reply set, as a fisk-ai call goes. */
      replySet: (subject: string, message: object, replies: readonly object[]) => {
        const inbox = `_INBOX.${this.ids.next()}`;
        const sub = port.subscribe(inbox, () => undefined);
        scripted.onPublish = (_sent, deliver) => {
          for (const r of replies) deliver({ subject: inbox, data: encoder.encode(JSON.stringify(r)) });
        };
        port.publish(subject, encoder.encode(JSON.stringify(message)), { reply: inbox });
        sub.unsubscribe();
      },
    };
  }
}
