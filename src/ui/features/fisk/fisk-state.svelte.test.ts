import { describe, expect, it } from "vitest";
import { ManualScheduler, manualClock, sequentialIds, silentLogger } from "../../../core/env/index.ts";
import { NatsSession } from "../../../core/nats/index.ts";
import type { NatsPort, NatsStatusEvent } from "../../../core/nats/port.ts";
import { WireLog } from "../../../core/wire/index.ts";
import { FiskState } from "./fisk-state.svelte.ts";
import { cardResult, FakeClient, fakeSource } from "./test-fakes.ts";

describe("FiskState", () => {
  it("stops the tap when the connection closes, and says so", async () => {
    let emit: (e: NatsStatusEvent) => void = () => undefined;
    const port = {
      server: "fake",
      onStatus: (l: (e: NatsStatusEvent) => void) => {
        emit = l;
        return () => undefined;
      },
      close: () => Promise.resolve(),
    } as unknown as NatsPort;
    const clock = manualClock();
    const session = new NatsSession({ connector: { connect: () => Promise.resolve(port) }, clock, ids: sequentialIds(), wireLog: new WireLog(clock), logger: silentLogger });
    await session.connect({ servers: "ws://x" });
    const source = fakeSource(new FakeClient());
    const fisk = new FiskState(source, new ManualScheduler());
    const off = fisk.watch(session);
    fisk.tap.start();
    emit({ type: "reconnecting" });
    expect(fisk.tap.running).toBe(true);
    emit({ type: "closed", message: "gone" });
    expect(fisk.tap.running).toBe(false);
    expect(source.stopped).toBe(1);
    expect(fisk.tap.error).toBe("The tap stopped: the NATS connection is closed.");
    off();
  });

  it("a tool of an agent discovered in Agents can be called with its schema", async () => {
    const client = new FakeClient();
    const schema = { type: "object", required: ["n"], properties: { n: { type: "integer" } } };
    client.discoveries.set("alpha", cardResult("alpha", { tools: [{ name: "count", description: "d", input_schema: schema }] }));
    const fisk = new FiskState(fakeSource(client), new ManualScheduler());
    await fisk.agents.discover("alpha");
    fisk.call.choose("alpha", "count");
    expect(fisk.call.schema).toEqual(schema);
    expect(JSON.parse(fisk.call.input)).toEqual({ n: 0 });
  });
});
