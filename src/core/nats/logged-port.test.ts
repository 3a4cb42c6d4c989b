import { describe, expect, it } from "vitest";
import { manualClock, sequentialIds } from "../env/index.ts";
import { WireLog } from "../wire/index.ts";
import { loggedPort } from "./logged-port.ts";
import type { NatsMessage, NatsPort } from "./port.ts";

const bytes = (s: string) => new TextEncoder().encode(s);

function fakePort(): NatsPort & { deliver(subject: string, m: NatsMessage): void } {
  const handlers = new Map<string, (m: NatsMessage) => void>();
  return {
    server: "fake",
    request: async (subject) => ({ subject, data: bytes("pong") }),
    publish: () => undefined,
    subscribe: (subject, on) => (handlers.set(subject, on), { unsubscribe: () => handlers.delete(subject) }),
    onStatus: () => () => undefined,
    flush: async () => undefined,
    close: async () => undefined,
    deliver: (subject, m) => handlers.get(subject)?.(m),
  };
}

describe("loggedPort", () => {
  it("records published frames and inbox deliveries verbatim, paired by the inbox", () => {
    const clock = manualClock();
    const log = new WireLog(clock, 100);
    const raw = fakePort();
    const port = loggedPort(raw, log, clock, sequentialIds("c"));
    const seen: string[] = [];
    port.subscribe("_INBOX.x", (m) => seen.push(new TextDecoder().decode(m.data)));
    port.publish("choria.fisk-ai.tool.a", bytes("{req}"), { reply: "_INBOX.x", headers: { A: ["1"] } });
    raw.deliver("_INBOX.x", { subject: "_INBOX.x", data: bytes("{ack}"), headers: { "Fisk-AI-Stream-Final": ["true"] } });
    const entries = log.entries();
    expect(entries.map((e) => [e.direction, e.target, new TextDecoder().decode(e.bytes), e.correlationId])).toEqual([
      ["out", "choria.fisk-ai.tool.a", "{req}", "_INBOX.x"],
      ["in", "_INBOX.x", "{ack}", "_INBOX.x"],
    ]);
    expect(entries[0]?.headers).toEqual({ A: ["1"] });
    expect(entries[1]?.headers).toEqual({ "Fisk-AI-Stream-Final": ["true"] });
    expect(seen).toEqual(["{ack}"]);
  });

  it("records both sides of a request with the round-trip time", async () => {
    const clock = manualClock();
    const log = new WireLog(clock, 100);
    const port = loggedPort(fakePort(), log, clock, sequentialIds("c"));
    await port.request("choria.fisk-ai.discovery.a", bytes("{d}"), { timeoutMs: 1000 });
    const entries = log.entries();
    expect(entries.map((e) => [e.direction, e.correlationId])).toEqual([
      ["out", "c-1"],
      ["in", "c-1"],
    ]);
    expect(entries[1]?.rttMs).toBe(0);
  });
});
