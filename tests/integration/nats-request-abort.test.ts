import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { NatsRequestError, type NatsPort } from "../../src/core/nats/index.ts";
import { sequentialIds, systemClock } from "../../src/core/env/index.ts";
import { loggedPort } from "../../src/core/nats/logged-port.ts";
import { tcpConnector } from "../../src/core/nats/node/tcp-connector.ts";
import { WireLog } from "../../src/core/wire/index.ts";

const natsUrl = inject("natsUrl");
const prefix = `abort.${crypto.randomUUID().slice(0, 8)}`;
const enc = new TextEncoder();
const dec = new TextDecoder();
let responder: NatsPort;
let client: NatsPort;
const seen: string[] = [];

beforeAll(async () => {
  responder = await tcpConnector().connect({ servers: natsUrl, name: "abort-responder" });
  responder.subscribe(`${prefix}.silent`, (m) => seen.push(dec.decode(m.data)));
  // Answers after 300 ms: later than the test gives up.
  responder.subscribe(`${prefix}.slow`, (m) => m.reply && setTimeout(() => responder.publish(m.reply!, enc.encode(`late answer to ${dec.decode(m.data)}`)), 300));
  await responder.flush();
  client = await tcpConnector().connect({ servers: natsUrl, name: "abort-client" });
});

afterAll(async () => {
  await client?.close();
  await responder?.close();
});

async function failure(p: Promise<unknown>): Promise<NatsRequestError> {
  const err: unknown = await p.then(() => new Error("the request was answered"), (e: unknown) => e);
  expect(err).toBeInstanceOf(NatsRequestError);
  return err as NatsRequestError;
}

describe("a NATS request with an abort signal", () => {
  it("fails as cancelled as soon as the signal aborts, long before its own timeout, with the reason", async () => {
    const stop = new AbortController();
    setTimeout(() => stop.abort(new Error("the step was stopped")), 100);
    const started = performance.now();
    const err = await failure(client.request(`${prefix}.silent`, enc.encode("wait"), { timeoutMs: 10_000, signal: stop.signal }));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(err.kind).toBe("cancelled");
    expect(err.message).toContain("the step was stopped");
  });

  it("is not sent when the signal has aborted already", async () => {
    const stop = new AbortController();
    stop.abort();
    const err = await failure(client.request(`${prefix}.silent`, enc.encode("never sent"), { timeoutMs: 1_000, signal: stop.signal }));
    expect(err.kind).toBe("cancelled");
    await client.flush();
    await responder.flush();
    expect(seen).not.toContain("never sent");
  });

  it("drops a reply that comes after it gave up: the wire log shows the give-up, never the late reply, and the next request gets its own", async () => {
    const log = new WireLog(systemClock(performance, Date), 100);
    const logged = loggedPort(client, log, systemClock(performance, Date), sequentialIds("abort"));
    const stop = new AbortController();
    setTimeout(() => stop.abort(new Error("the step was stopped")), 50);
    expect((await failure(logged.request(`${prefix}.slow`, enc.encode("a"), { timeoutMs: 5_000, signal: stop.signal }))).kind).toBe("cancelled");
    // Past the moment the responder answers "a".
    await new Promise((r) => setTimeout(r, 400));
    const reply = await logged.request(`${prefix}.slow`, enc.encode("b"), { timeoutMs: 5_000, signal: new AbortController().signal });
    expect(dec.decode(reply.data)).toBe("late answer to b");
    expect(log.entries().map((e) => [e.direction, dec.decode(e.bytes), e.note ?? ""])).toEqual([
      ["out", "a", ""],
      ["in", "", "the request was given up: the step was stopped"],
      ["out", "b", ""],
      ["in", "late answer to b", ""],
    ]);
  });
});
