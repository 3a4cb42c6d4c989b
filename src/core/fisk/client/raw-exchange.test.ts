import { describe, expect, it } from "vitest";
import { sendRaw } from "./raw-exchange.ts";
import { microError, peerMessage, reply, scriptedDeps } from "./testing/scripted-port.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const FINAL = { "Fisk-AI-Stream-Final": ["true"] };

describe("sendRaw", () => {
  it("sends any bytes with any headers, even an invalid message, and reads until silence", async () => {
    const { deps, port, advance } = scriptedDeps();
    let deliver: (m: ReturnType<typeof reply>) => void = () => undefined;
    port.onPublish = (_s, d) => (deliver = d);
    const exchange = sendRaw(deps, { subject: "anything.at.all", body: bytes("{not json"), headers: { "X-Probe": ["1"] }, idleMs: 50 });
    expect(port.sent[0]).toMatchObject({ subject: "anything.at.all", text: "{not json", headers: { "X-Probe": ["1"] } });
    deliver(reply(peerMessage("tool.reply", "t", 0)));
    advance(40);
    deliver(reply("plain text"));
    advance(49);
    deliver(reply({ protocol: "io.choria.fisk-ai.v1.bogus", request: "t" }));
    advance(50);
    const r = await exchange;
    expect(r.end).toBe("silence");
    expect(r.entries.map((e) => [e.disposition, e.at])).toEqual([
      ["terminal", 0],
      ["invalid", 40],
      ["invalid", 89],
    ]);
    expect(r.entries[1]?.note).toBe("not JSON");
    expect(r.entries[2]?.note).toBe("io.choria.fisk-ai.v1.bogus is not a reply");
    expect(r.elapsedMs).toBe(139);
  });

  it("marks replies of another request as foreign when the body names its request", async () => {
    const { deps, port, advance } = scriptedDeps();
    port.onPublish = (_s, d) => {
      d(reply(peerMessage("ack", "other", 1, { accepted: true })));
      d(reply(peerMessage("ack", "mine", 1, { accepted: true })));
    };
    const exchange = sendRaw(deps, { subject: "s", body: bytes(JSON.stringify({ protocol: "x", request: "mine" })), idleMs: 10 });
    advance(10);
    expect((await exchange).entries.map((e) => e.disposition)).toEqual(["foreign", "ack"]);
  });

  it("ends on a final header, a refusal, no responders, an abort and a failed publish", async () => {
    const run = (script: (d: (m: ReturnType<typeof reply>) => void) => void, signal?: AbortSignal) => {
      const { deps, port } = scriptedDeps();
      port.onPublish = (_s, d) => script(d);
      return sendRaw(deps, { subject: "s", body: bytes(""), idleMs: 1000, ...(signal ? { signal } : {}) });
    };
    expect((await run((d) => d(reply(peerMessage("event.status", "t", 2), "_INBOX.x", FINAL)))).end).toBe("final");
    expect((await run((d) => d(microError("400", "bad")))).entries[0]).toMatchObject({ disposition: "refusal", note: "400: bad" });
    expect((await run((d) => d(reply("", "_INBOX.x", undefined, 503)))).end).toBe("no-responders");
    expect((await run(() => undefined, AbortSignal.abort())).end).toBe("cancelled");
    const broken = scriptedDeps();
    broken.port.publish = () => {
      throw new Error("connection closed");
    };
    expect(await sendRaw(broken.deps, { subject: "s", body: bytes(""), idleMs: 10 })).toMatchObject({ end: "send-failed", error: "connection closed" });
    expect(broken.port.subscriptions).toBe(0);
  });

  it("reports each entry live", async () => {
    const { deps, port, advance } = scriptedDeps();
    port.onPublish = (_s, d) => d(reply(peerMessage("ack", "t", 1)));
    const seen: string[] = [];
    const exchange = sendRaw(deps, { subject: "s", body: bytes("x"), idleMs: 5, onEntry: (e) => seen.push(e.disposition) });
    advance(5);
    await exchange;
    expect(seen).toEqual(["ack"]);
  });
});
