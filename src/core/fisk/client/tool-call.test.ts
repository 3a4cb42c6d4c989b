import { describe, expect, it } from "vitest";
import { createValidationEngine } from "../../packs/index.ts";
import { callTool } from "./tool-call.ts";
import { NS, peerMessage, reply, scriptedDeps, settle } from "./testing/scripted-port.ts";

const engine = createValidationEngine();
const validate = (text: string) => engine.session().validateText(text);

describe("callTool", () => {
  it("publishes a tool.request with a fresh inbox and maps the reply set, validating each message", async () => {
    const { deps, port } = scriptedDeps({ validate });
    port.onPublish = (sent, deliver) => {
      const request = String(JSON.parse(sent.text).request);
      deliver(reply(peerMessage("ack", request, 1, { accepted: true })));
      deliver(reply(peerMessage("tool.reply", request, 2, { output: "x\n", exec: { command: "stream info", exit_code: 3 } }), "_INBOX.x", { "Fisk-AI-Stream-Final": ["true"] }));
    };
    const r = await callTool(deps, "nats-tools", "stream_info", { stream: "ORDERS" });
    expect(port.sent).toHaveLength(1);
    expect(port.sent[0]).toMatchObject({ subject: "choria.fisk-ai.tool.nats-tools", via: "publish", text: r.requestText, reply: expect.stringMatching(/^_INBOX\./) });
    expect(JSON.parse(r.requestText)).toMatchObject({ protocol: `${NS}.tool.request`, request: r.request, conversation: r.request, name: "stream_info", input: { stream: "ORDERS" } });
    expect(r.outcome).toEqual({ kind: "ran", exitCode: 3, output: "x\n", command: "stream info", truncated: false });
    expect(r.set.entries.map((e) => e.disposition)).toEqual(["ack", "terminal"]);
    expect(r.verdicts?.map((v) => v?.status)).toEqual(["valid", "valid"]);
  });

  it("leaves a null or empty input off, and writes Go's bytes when asked", async () => {
    const { deps, port } = scriptedDeps();
    await callTool(deps, "a", "ping", null, { idleMs: 1, allowShortIdle: true, signal: AbortSignal.abort() });
    await callTool(deps, "a", "ping", {}, { signal: AbortSignal.abort() });
    for (const s of port.sent) expect(JSON.parse(s.text)).not.toHaveProperty("input");
    const go = await callTool(deps, "a", "ping", { q: "<b>" }, { go: true, signal: AbortSignal.abort() });
    expect(go.requestText).toContain('"input":{"q":"\\u003cb\\u003e"}');
  });

  it("waits at least 30 s between messages unless a test allows less", async () => {
    const long = scriptedDeps();
    const waiting = callTool(long.deps, "a", "ping", null, { idleMs: 10 });
    long.scheduler.advance(29_999);
    long.scheduler.advance(1);
    expect((await waiting).outcome).toEqual({ kind: "idle-timeout", idleMs: 30_000 });
    const short = scriptedDeps();
    const quick = callTool(short.deps, "a", "ping", null, { idleMs: 10, allowShortIdle: true });
    short.scheduler.advance(10);
    expect((await quick).outcome).toEqual({ kind: "idle-timeout", idleMs: 10 });
    const dflt = scriptedDeps();
    const slow = callTool(dflt.deps, "a", "ping", null);
    dflt.scheduler.advance(120_000);
    expect((await slow).outcome).toEqual({ kind: "idle-timeout", idleMs: 120_000 });
  });

  it("refuses an invalid identity, an unencodable input and an invalid request before sending", async () => {
    const { deps, port } = scriptedDeps();
    expect((await callTool(deps, "a.b", "ping", null)).outcome).toMatchObject({ kind: "send-failed", message: expect.stringContaining("is not valid") });
    expect((await callTool(deps, "a", "ping", { n: 10n })).outcome.kind).toBe("send-failed");
    const strict = scriptedDeps({ validate, sender: { name: "" } });
    expect((await callTool(strict.deps, "a", "ping", null)).outcome).toMatchObject({ kind: "send-failed", message: expect.stringContaining("refused to send an invalid message") });
    expect(port.sent).toEqual([]);
    expect(strict.port.sent).toEqual([]);
  });

  it("ends at once, named, when the connection drops mid-call, and never sends the call again", async () => {
    const { deps, port } = scriptedDeps();
    port.onPublish = (sent, deliver) => deliver(reply(peerMessage("ack", String(JSON.parse(sent.text).request), 1, { accepted: true })));
    const call = callTool(deps, "a", "slow", null);
    await settle();
    port.emitStatus({ type: "disconnect", server: "127.0.0.1:4222" });
    const r = await call;
    expect(r.outcome).toEqual({ kind: "disconnected", server: "127.0.0.1:4222" });
    expect(port.sent.filter((s) => s.subject === "choria.fisk-ai.tool.a")).toHaveLength(1);
    expect(port.subscriptions).toBe(0);
  });

  it("an acknowledged call whose instance stops answering its PING ends as instance-gone; a live one goes on", async () => {
    const { deps, port, advance } = scriptedDeps();
    const answering = new Set(["east", "west"]);
    port.onPublish = (sent, deliver) => {
      if (sent.subject === "$SRV.PING.orders") {
        for (const instance of answering) deliver(reply({ type: "io.nats.micro.v1.ping_response", name: "orders", id: instance.toUpperCase(), metadata: { instance } }));
        return;
      }
      deliver(reply(peerMessage("ack", String(JSON.parse(sent.text).request), 1, { accepted: true, sender: { name: "orders", instance: "east" } })));
    };
    let ended = false;
    const call = callTool(deps, "orders", "slow", null).then((r) => ((ended = true), r));
    await settle();
    advance(5000);
    await settle();
    advance(300);
    await settle();
    expect(ended).toBe(false);
    answering.delete("east");
    advance(5000);
    await settle();
    advance(300);
    const r = await call;
    expect(r.outcome).toMatchObject({ kind: "instance-gone", instance: "east", via: { subject: "$SRV.PING.orders" } });
    expect(r.outcome.kind === "instance-gone" && r.outcome.via.silentMs).toBeGreaterThanOrEqual(10_000);
    expect(port.sent.filter((s) => s.subject === "choria.fisk-ai.tool.orders")).toHaveLength(1);
  });

  it("instances that do not name themselves prove nothing: the call waits for its idle limit", async () => {
    const { deps, port, advance } = scriptedDeps();
    port.onPublish = (sent, deliver) => {
      if (sent.subject.startsWith("$SRV.PING.")) return deliver(reply({ type: "io.nats.micro.v1.ping_response", name: "orders", id: "X", metadata: {} }));
      deliver(reply(peerMessage("ack", String(JSON.parse(sent.text).request), 1, { accepted: true, sender: { name: "orders", instance: "east" } })));
    };
    const call = callTool(deps, "orders", "slow", null, { idleMs: 30_000 });
    for (let t = 0; t < 31; t++) {
      await settle();
      advance(1000);
    }
    expect((await call).outcome).toEqual({ kind: "idle-timeout", idleMs: 30_000 });
  });
});
