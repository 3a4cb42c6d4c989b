import { describe, expect, it } from "vitest";
import { manualClock, ManualScheduler } from "../../env/index.ts";
import type { NatsHeaders, NatsMessage, NatsPort } from "../../nats/port.ts";
import { FINAL_HEADER, readReplySet, type ReplySetRequest } from "./reply-set.ts";

const NS = "io.choria.fisk-ai.v1";
const REQUEST = "3xTNJFoBinF5aJXVuLkSIc47WQA";
const INBOX = "_INBOX.test1";
const encoder = new TextEncoder();

/** A port whose peer is a script: on publish it schedules the script's messages to the inbox. */
class ScriptedPort implements NatsPort {
  readonly server = "fake";
  readonly handlers = new Map<string, (m: NatsMessage) => void>();
  published: { subject: string; reply?: string }[] = [];
  onPublish: (deliver: (m: NatsMessage) => void) => void = () => undefined;
  unsubscribed = 0;

  request(): Promise<NatsMessage> {
    throw new Error("not used");
  }
  publish(subject: string, _data: Uint8Array, options?: { headers?: NatsHeaders; reply?: string }): void {
    this.published.push({ subject, ...(options?.reply ? { reply: options.reply } : {}) });
    const reply = options?.reply;
    if (reply) this.onPublish((m) => this.handlers.get(reply)?.(m));
  }
  subscribe(subject: string, onMessage: (m: NatsMessage) => void) {
    this.handlers.set(subject, onMessage);
    return { unsubscribe: () => (this.unsubscribed++, this.handlers.delete(subject)) };
  }
  onStatus() {
    return () => undefined;
  }
  flush() {
    return Promise.resolve();
  }
  close() {
    return Promise.resolve();
  }
}

function msg(body: Record<string, unknown> | string, headers?: NatsHeaders, status?: number): NatsMessage {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return { subject: INBOX, data: encoder.encode(text), ...(headers ? { headers } : {}), ...(status ? { status: { code: status, description: "" } } : {}) };
}

const fisk = (kind: string, sequence: number, extra: Record<string, unknown> = {}, request = REQUEST) => ({
  protocol: `${NS}.${kind}`,
  id: `id${sequence}`,
  request,
  conversation: request,
  sequence,
  time: "2026-08-21T09:14:05.00311728Z",
  sender: { name: "nats-tools" },
  ...extra,
});

function setup(script: (deliver: (m: NatsMessage) => void, clock: ReturnType<typeof manualClock>) => void, extra: Partial<ReplySetRequest> = {}) {
  const port = new ScriptedPort();
  const clock = manualClock();
  const scheduler = new ManualScheduler();
  port.onPublish = (deliver) => script(deliver, clock);
  const req: ReplySetRequest = {
    subject: "choria.fisk-ai.tool.nats-tools",
    body: encoder.encode("{}"),
    inbox: INBOX,
    request: REQUEST,
    terminals: new Set([`${NS}.tool.reply`]),
    idleMs: 30_000,
    ...extra,
  };
  return { port, clock, scheduler, result: readReplySet({ port, clock, scheduler }, req) };
}

describe("readReplySet", () => {
  it("reads a Gen 2 set: ack, keepalives, then the final tool.reply, and unsubscribes", async () => {
    const { port, result } = setup((deliver, clock) => {
      deliver(msg(fisk("ack", 1, { accepted: true })));
      clock.advance(10_000);
      deliver(msg(fisk("event.status", 2, { block: { phase: "running-tool" } })));
      clock.advance(2_000);
      deliver(msg(fisk("tool.reply", 3, { output: "ok\n", exec: { command: "x" } }), { [FINAL_HEADER]: ["true"] }));
    });
    const r = await result;
    expect(r.end.kind).toBe("terminal");
    expect(r.entries.map((e) => [e.disposition, e.sequence, e.at])).toEqual([
      ["ack", 1, 0],
      ["event", 2, 10_000],
      ["terminal", 3, 12_000],
    ]);
    expect(r.entries[2]?.final).toBe(true);
    expect(r.gaps).toBe(0);
    expect(port.published).toEqual([{ subject: "choria.fisk-ai.tool.nats-tools", reply: INBOX }]);
    expect(port.unsubscribed).toBe(1);
  });

  it("takes a Gen 1 peer's single tool.reply, with no ack and no final header", async () => {
    const r = await setup((deliver) => deliver(msg(fisk("tool.reply", 0, { output: "x" })))).result;
    expect(r.end.kind).toBe("terminal");
    expect(r.entries).toHaveLength(1);
  });

  it("drops a message of another request, and one with no request tag, and keeps reading", async () => {
    const r = await setup((deliver) => {
      deliver(msg(fisk("tool.reply", 2, {}, "someone-else")));
      const { request: _r, ...untagged } = fisk("tool.reply", 2);
      deliver(msg(untagged));
      deliver(msg(fisk("tool.reply", 2, { output: "mine" })));
    }).result;
    expect(r.entries.map((e) => e.disposition)).toEqual(["foreign", "foreign", "terminal"]);
    expect(r.entries[0]?.note).toContain("someone-else");
    expect(r.entries[1]?.note).toContain("no request tag");
  });

  it("reports no responders (503) and a micro-service refusal with its code and text", async () => {
    expect((await setup((deliver) => deliver(msg("", undefined, 503))).result).end).toEqual({ kind: "no-responders" });
    const refused = await setup((deliver) =>
      deliver(msg("", { "Nats-Service-Error-Code": ["400"], "Nats-Service-Error": ['unexpected message protocol: got "x", want "y"'] })),
    ).result;
    expect(refused.end).toEqual({ kind: "refused", code: "400", description: 'unexpected message protocol: got "x", want "y"' });
  });

  it("gives up after the idle time with nothing from the peer, and the timer restarts on each message", async () => {
    const { scheduler, result } = setup((deliver) => deliver(msg(fisk("ack", 1, { accepted: true }))));
    scheduler.advance(29_999);
    scheduler.advance(1);
    const r = await result;
    expect(r.end).toEqual({ kind: "idle-timeout", idleMs: 30_000 });
    expect(r.entries.map((e) => e.disposition)).toEqual(["ack"]);
  });

  it.each([
    ["a second ack", [fisk("ack", 1, { accepted: true }), fisk("ack", 2, { accepted: true })], /second ack/],
    ["a message that does not belong in a reply set", [fisk("discovery.reply", 1)], /does not belong/],
    ["a body that is not JSON", ["{nope"], /not JSON/],
    ["a body with no protocol", [{ request: REQUEST }], /no protocol/],
  ])("ends with a protocol error on %s", async (_name, bodies, reason) => {
    const r = await setup((deliver) => bodies.forEach((b) => deliver(msg(b as Record<string, unknown>)))).result;
    expect(r.end.kind).toBe("protocol-error");
    if (r.end.kind === "protocol-error") expect(r.end.message).toMatch(reason);
  });

  it("refuses a message over the 786,432-byte cap without parsing it", async () => {
    const r = await setup((deliver) => deliver({ subject: INBOX, data: new Uint8Array(786_433) })).result;
    expect(r.end.kind).toBe("protocol-error");
    expect(r.entries[0]?.note).toMatch(/786433 bytes/);
  });

  it("stops at the final header even without a terminal message, and counts sequence gaps", async () => {
    const r = await setup((deliver) => {
      deliver(msg(fisk("ack", 1, { accepted: true })));
      deliver(msg(fisk("event.text", 4, { block: { text: "x" } }), { [FINAL_HEADER]: ["true"] }));
    }).result;
    expect(r.end.kind).toBe("final-without-terminal");
    expect(r.gaps).toBe(2);
  });

  it("stops when cancelled, and does not even publish when cancelled before", async () => {
    const controller = new AbortController();
    const { result } = setup(() => undefined, { signal: controller.signal });
    controller.abort();
    expect((await result).end).toEqual({ kind: "cancelled" });
    const early = new AbortController();
    early.abort();
    const second = setup(() => undefined, { signal: early.signal });
    expect((await second.result).end).toEqual({ kind: "cancelled" });
    expect(second.port.published).toEqual([]);
  });

  it("reports every entry live as it arrives", async () => {
    const seen: string[] = [];
    await setup((deliver) => {
      deliver(msg(fisk("ack", 1, { accepted: true })));
      deliver(msg(fisk("tool.reply", 2)));
    }, { onEntry: (e) => seen.push(e.disposition) }).result;
    expect(seen).toEqual(["ack", "terminal"]);
  });

  it("keeps reading past the idle time while holdIdle says a question is held, then gives up when it stops", async () => {
    let holding = true;
    const { scheduler, result } = setup((deliver) => deliver(msg(fisk("ack", 1, { accepted: true }))), { holdIdle: () => holding });
    let ended = false;
    void result.then(() => (ended = true));
    scheduler.advance(90_000);
    await Promise.resolve();
    expect(ended).toBe(false);
    holding = false;
    scheduler.advance(30_000);
    expect((await result).end).toEqual({ kind: "idle-timeout", idleMs: 30_000 });
  });

  describe("liveness: a silent set asks whether the agent still exists", () => {
    const via = { subject: "$SRV.PING.nats-tools", silentMs: 1500 };
    const settle = async () => {
      for (let i = 0; i < 5; i++) await Promise.resolve();
    };

    it("ends with no responders when the probe finds nothing serves the agent, long before the idle limit", async () => {
      const asked: number[] = [];
      const { scheduler, port, result } = setup(() => undefined, { liveness: { afterMs: 1500, probe: async (silentMs) => (asked.push(silentMs), { gone: true, via }) } });
      scheduler.advance(1499);
      await settle();
      expect(asked).toEqual([]);
      scheduler.advance(1);
      const r = await result;
      expect(asked).toEqual([1500]);
      expect(r.end).toEqual({ kind: "no-responders", via });
      expect(port.unsubscribed).toBe(1);
    });

    it("keeps waiting when the agent answers its PING, and never asks once a message of the set came", async () => {
      let asked = 0;
      const alive = setup(() => undefined, { liveness: { afterMs: 1500, probe: async () => (asked++, { gone: false }) } });
      alive.scheduler.advance(1500);
      await settle();
      alive.scheduler.advance(28_500);
      expect((await alive.result).end).toEqual({ kind: "idle-timeout", idleMs: 30_000 });
      expect(asked).toBe(1);

      asked = 0;
      const acked = setup((deliver) => deliver(msg(fisk("ack", 1, { accepted: true }))), { liveness: { afterMs: 1500, probe: async () => (asked++, { gone: true, via }) } });
      acked.scheduler.advance(30_000);
      expect((await acked.result).end).toEqual({ kind: "idle-timeout", idleMs: 30_000 });
      expect(asked).toBe(0);
    });

    it("drops a probe answer that lands after the set ended or after a message arrived", async () => {
      let answer: (a: { gone: true; via: typeof via }) => void = () => undefined;
      const deliverLater: { fn?: (m: NatsMessage) => void } = {};
      const { scheduler, result } = setup((deliver) => (deliverLater.fn = deliver), { liveness: { afterMs: 1500, probe: () => new Promise((r) => (answer = r)) } });
      scheduler.advance(1500);
      deliverLater.fn?.(msg(fisk("tool.reply", 0, { output: "late but here" })));
      answer({ gone: true, via });
      expect((await result).end.kind).toBe("terminal");
    });
  });
});
