import { describe, expect, it } from "vitest";
import type { NatsMessage } from "../../nats/port.ts";
import { statusFanout } from "./status-fanout.ts";
import { ScriptedPort } from "./testing/scripted-port.ts";

const status503: NatsMessage = { subject: "_INBOX.mine", data: new Uint8Array(0), status: { code: 503, description: "" } };

describe("statusFanout", () => {
  it("gives a status a wildcard subscription caught to the literal subscription on its subject too", () => {
    const raw = new ScriptedPort();
    const port = statusFanout(raw);
    const tap: string[] = [];
    const mine: number[] = [];
    port.subscribe("_INBOX.>", (m) => tap.push(m.subject));
    const sub = port.subscribe("_INBOX.mine", (m) => mine.push(m.status?.code ?? 0));
    raw.deliver("_INBOX.>", status503);
    expect(tap).toEqual(["_INBOX.mine"]);
    expect(mine).toEqual([503]);
    // Ordinary messages are never copied, and an unsubscribed inbox gets nothing more.
    raw.deliver("_INBOX.>", { subject: "_INBOX.mine", data: new Uint8Array(1) });
    sub.unsubscribe();
    raw.deliver("_INBOX.>", status503);
    expect(mine).toEqual([503]);
  });
});
