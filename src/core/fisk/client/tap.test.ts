import { describe, expect, it } from "vitest";
import { createValidationEngine } from "../../packs/index.ts";
import { redactConversationTokens, redactToken } from "./redact.ts";
import { DEFAULT_TAP_SUBJECTS, startTap, type TapFrame } from "./tap.ts";
import { NS, peerMessage, reply, scriptedDeps } from "./testing/scripted-port.ts";

const engine = createValidationEngine();
const validate = (text: string) => engine.session().validateText(text);

describe("startTap", () => {
  it("decodes and validates each message and pairs a request with its replies by the reply inbox", () => {
    const { deps, port, clock } = scriptedDeps({ validate });
    const frames: TapFrame[] = [];
    const tap = startTap(deps, ["choria.fisk-ai.tool.a", "_INBOX.abc"], (f) => frames.push(f));
    port.deliver("choria.fisk-ai.tool.a", { ...reply(peerMessage("tool.request", "r1", 0, { name: "ping" }), "choria.fisk-ai.tool.a"), reply: "_INBOX.abc" });
    clock.advance(5);
    port.deliver("_INBOX.abc", reply(peerMessage("tool.reply", "r1", 0, { output: "pong\n" }), "_INBOX.abc"));
    port.deliver("_INBOX.abc", reply("", "_INBOX.abc", { "Nats-Service-Error-Code": ["400"], "Nats-Service-Error": ["bad"] }));
    port.deliver("_INBOX.abc", reply("{nope", "_INBOX.abc"));
    expect(frames.map((f) => [f.at, f.correlation])).toEqual([
      [0, "_INBOX.abc"],
      [5, "_INBOX.abc"],
      [5, "_INBOX.abc"],
      [5, "_INBOX.abc"],
    ]);
    expect(frames[0]?.decoded).toMatchObject({ ok: true, kind: "tool.request" });
    expect(frames[0]?.verdict?.status).toBe("valid");
    expect(frames[1]?.decoded).toMatchObject({ ok: true, kind: "tool.reply" });
    expect(frames[2]?.decoded).toBeUndefined();
    expect(frames[3]?.decoded).toMatchObject({ ok: false, error: { code: "not-json" } });
    expect(frames[3]?.verdict).toBeUndefined();
    tap.stop();
    tap.stop();
    port.deliver("_INBOX.abc", reply(peerMessage("tool.reply", "r1", 0), "_INBOX.abc"));
    expect(frames).toHaveLength(4);
    expect(port.subscriptions).toBe(0);
  });

  it("taps the default subjects when given none, and records subjects it could not tap and connection errors", () => {
    const { deps, port } = scriptedDeps();
    const subscribed: string[] = [];
    port.subscribeError = (subject) => {
      subscribed.push(subject);
      return subject === "_INBOX.>" ? new Error("permissions violation for subscription") : undefined;
    };
    const tap = startTap(deps, [], () => undefined);
    expect(subscribed).toEqual([...DEFAULT_TAP_SUBJECTS]);
    port.emitStatus({ type: "error", message: 'Permissions Violation for Subscription to "_INBOX.>"' });
    expect(tap.failures).toEqual(["_INBOX.>: permissions violation for subscription", 'Permissions Violation for Subscription to "_INBOX.>"']);
    tap.stop();
    port.emitStatus({ type: "error", message: "later" });
    expect(tap.failures).toHaveLength(2);
  });

  it("leaves messages without a reply or inbox uncorrelated", () => {
    const { deps, port } = scriptedDeps();
    const frames: TapFrame[] = [];
    startTap(deps, ["choria.fisk-ai.tool.a"], (f) => frames.push(f));
    port.deliver("choria.fisk-ai.tool.a", reply({ protocol: `${NS}.ack` }, "choria.fisk-ai.tool.a"));
    expect(frames[0]?.correlation).toBeUndefined();
  });
});

describe("redaction", () => {
  it("replaces a known token everywhere, and every conversation_token value in JSON text", () => {
    expect(redactToken("a TOK b TOK", "TOK")).toBe("a ••• b •••");
    expect(redactToken("a TOK", undefined)).toBe("a TOK");
    const text = '{"accepted":true,"conversation_token":"3A819bvTpf9dqcUgxM9ZZ810pkf","x":{"conversation_token" : "a\\"b"},"conversation_token2":"keep","e":{"conversation_token":""}}';
    expect(redactConversationTokens(text)).toBe('{"accepted":true,"conversation_token":"•••","x":{"conversation_token" : "•••"},"conversation_token2":"keep","e":{"conversation_token":""}}');
  });
});
