import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { randomIds, silentLogger, systemClock } from "../../src/core/env/index.ts";
import { NatsSession, type NatsPort } from "../../src/core/nats/index.ts";
import { tcpConnector } from "../../src/core/nats/node/tcp-connector.ts";
import { WireLog } from "../../src/core/wire/index.ts";

const natsUrl = inject("natsUrl");
const enc = new TextEncoder();
const dec = new TextDecoder();

function newSession() {
  const clock = systemClock(performance, Date);
  const wireLog = new WireLog(clock, 100);
  const session = new NatsSession({
    connector: tcpConnector(),
    clock,
    ids: randomIds((b) => crypto.getRandomValues(b)),
    wireLog,
    logger: silentLogger,
  });
  return { session, wireLog };
}

describe("NatsSession against a real nats-server", () => {
  let responder: NatsPort;
  const prefix = `it.${crypto.randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    responder = await tcpConnector().connect({ servers: natsUrl, name: "it-responder" });
    responder.subscribe(`${prefix}.echo`, (msg) => {
      if (!msg.reply) return;
      const trace = msg.headers?.["X-Trace"]?.[0] ?? "none";
      responder.publish(msg.reply, enc.encode(JSON.stringify({ echoed: dec.decode(msg.data) })), {
        headers: { "X-Echo": ["yes"], "X-Trace": [trace] },
      });
    });
    responder.subscribe(`${prefix}.silent`, () => {});
    await responder.flush();
  });

  afterAll(async () => {
    await responder.close();
  });

  it("sends a request with headers, gets the reply, and logs both frames verbatim", async () => {
    const { session, wireLog } = newSession();
    await session.connect({ servers: natsUrl });
    expect(session.snapshot.state).toBe("connected");
    const payload = enc.encode('{"b":2, "a":1}');
    const outcome = await session.request({
      subject: `${prefix}.echo`,
      payload,
      headers: { "X-Trace": ["abc"] },
      timeoutMs: 2000,
    });
    expect(outcome.kind).toBe("reply");
    if (outcome.kind !== "reply") return;
    expect(outcome.message.headers?.["X-Echo"]).toEqual(["yes"]);
    expect(outcome.message.headers?.["X-Trace"]).toEqual(["abc"]);
    expect(JSON.parse(dec.decode(outcome.message.data))).toEqual({ echoed: '{"b":2, "a":1}' });
    expect(outcome.rttMs).toBeGreaterThan(0);

    const [out, back] = wireLog.entries();
    expect(wireLog.entries()).toHaveLength(2);
    expect(out?.direction).toBe("out");
    expect(out?.target).toBe(`${prefix}.echo`);
    expect(dec.decode(out?.bytes)).toBe('{"b":2, "a":1}');
    expect(out?.headers).toEqual({ "X-Trace": ["abc"] });
    expect(back?.direction).toBe("in");
    expect(back?.bytes).toEqual(outcome.message.data);
    expect(back?.headers?.["X-Echo"]).toEqual(["yes"]);
    expect(back?.correlationId).toBe(out?.correlationId);
    expect(back?.rttMs).toBe(outcome.rttMs);
    expect(back?.decoded.json).toEqual({ echoed: '{"b":2, "a":1}' });
    await session.disconnect();
    expect(session.snapshot.state).toBe("closed");
  });

  it("reports no responders as a 503 and logs it", async () => {
    const { session, wireLog } = newSession();
    await session.connect({ servers: natsUrl });
    const outcome = await session.request({ subject: `${prefix}.nobody`, payload: enc.encode("x"), timeoutMs: 2000 });
    expect(outcome.kind).toBe("no-responders");
    const last = wireLog.entries().at(-1);
    expect(last?.status).toBe(503);
    expect(last?.note).toBe("no responders");
    await session.disconnect();
  });

  it("reports a timeout when the responder never answers", async () => {
    const { session, wireLog } = newSession();
    await session.connect({ servers: natsUrl });
    const outcome = await session.request({ subject: `${prefix}.silent`, payload: enc.encode("x"), timeoutMs: 300 });
    expect(outcome.kind).toBe("timeout");
    expect(outcome.rttMs).toBeGreaterThanOrEqual(250);
    expect(wireLog.entries().at(-1)?.note).toBe("timeout after 300 ms");
    await session.disconnect();
  });

  it("refuses a subject with wildcards or empty tokens without sending", async () => {
    const { session, wireLog } = newSession();
    await session.connect({ servers: natsUrl });
    for (const subject of ["a.*", "a.>", "a..b", "", "has space"]) {
      const outcome = await session.request({ subject, payload: enc.encode("x"), timeoutMs: 500 });
      expect(outcome.kind).toBe("error");
    }
    expect(wireLog.entries()).toHaveLength(0);
    await session.disconnect();
  });

  it("fails clearly and promptly when nothing listens at the URL", async () => {
    const { session } = newSession();
    const started = performance.now();
    await session.connect({ servers: "nats://127.0.0.1:1", timeoutMs: 2000 });
    expect(session.snapshot.state).toBe("failed");
    expect(session.snapshot.error).toMatch(/could not connect to nats:\/\/127\.0\.0\.1:1/);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it("answers 'not connected' before any connection", async () => {
    const { session } = newSession();
    const outcome = await session.request({ subject: "a", payload: new Uint8Array(), timeoutMs: 100 });
    expect(outcome).toEqual({ kind: "error", rttMs: 0, message: "not connected" });
  });
});
