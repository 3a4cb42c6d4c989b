/**
 * No hangs where NATS already knows, against a real nats-server: a console's own tap shares the
 * connection with its calls, and nats-server gives a no-responders status to one subscription of
 * the connection matching the reply subject, which can be the tap's `_INBOX.>`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { DEFAULT_SENDER, FiskClient, startTap, statusFanout, type FiskClientDeps, type Tap } from "../../src/core/fisk/client/index.ts";
import { systemClock, systemScheduler } from "../../src/core/env/index.ts";
import { tcpConnector } from "../../src/core/nats/node/tcp-connector.ts";
import type { NatsPort } from "../../src/core/nats/port.ts";

const natsUrl = inject("natsUrl");
const clock = systemClock(performance, Date);
const ports: NatsPort[] = [];
const ghost = () => `ghost-${crypto.randomUUID().slice(0, 8)}`;

async function deps(fanout: boolean): Promise<FiskClientDeps> {
  const raw = await tcpConnector().connect({ servers: natsUrl, name: "fisk-liveness-test" });
  ports.push(raw);
  return { port: fanout ? statusFanout(raw) : raw, clock, scheduler: systemScheduler(), random: (b) => crypto.getRandomValues(b), sender: DEFAULT_SENDER };
}

describe("a call or a task next to a tap on the same connection", () => {
  const taps: Tap[] = [];
  /** A tap on the connection for the current test only: a tap left on would give the next test's subjects interest. */
  const tapFor = (on: FiskClientDeps, subjects: string[]): void => void taps.push(startTap(on, subjects, () => undefined));
  let withFanout: FiskClientDeps;
  let without: FiskClientDeps;

  beforeAll(async () => {
    withFanout = await deps(true);
    without = await deps(false);
  });

  afterEach(() => {
    for (const t of taps.splice(0)) t.stop();
  });

  afterAll(async () => {
    await Promise.all(ports.map((p) => p.close()));
  });

  it("without the fan-out, the tap's _INBOX.> takes the 503 and the call hears nothing (why the fan-out exists)", async () => {
    tapFor(without, ["_INBOX.>"]);
    await without.port.flush();
    const call = await new FiskClient(without).callTool(ghost(), "echo", null, { idleMs: 1500, allowShortIdle: true, liveness: false });
    expect(call.outcome).toEqual({ kind: "idle-timeout", idleMs: 1500 });
  });

  it("with the fan-out, a tool call to an identity nobody serves is no such agent at once", async () => {
    tapFor(withFanout, ["_INBOX.>"]);
    await withFanout.port.flush();
    const started = clock.now();
    const call = await new FiskClient(withFanout).callTool(ghost(), "echo", null, { liveness: false });
    expect(call.outcome).toEqual({ kind: "no-such-agent" });
    expect(clock.now() - started).toBeLessThan(1000);
  });

  it("with a tap holding choria.fisk-ai.> too, the agent's micro PING ends a call and a task within seconds", async () => {
    tapFor(withFanout, ["choria.fisk-ai.>", "_INBOX.>"]);
    await withFanout.port.flush();
    const client = new FiskClient(withFanout);
    const identity = ghost();
    const started = clock.now();
    const call = await client.callTool(identity, "echo", null);
    expect(call.outcome).toEqual({ kind: "no-such-agent", via: { subject: `$SRV.PING.${identity}`, silentMs: 1500 } });
    expect(clock.now() - started).toBeLessThan(4000);
    const task = await client.startTask(identity, { kind: "prompt", prompt: "anyone?" }).done;
    expect(task.end).toEqual({ kind: "no-responders", via: { subject: `$SRV.PING.${identity}`, silentMs: 1500 } });
  });
});
