import { describe, expect, it } from "vitest";
import { createValidationEngine } from "../../packs/index.ts";
import { callTool } from "./tool-call.ts";
import { NS, peerMessage, reply, scriptedDeps } from "./testing/scripted-port.ts";

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
});
