import { describe, expect, it } from "vitest";
import { NatsRequestError } from "../../nats/port.ts";
import { createValidationEngine } from "../../packs/index.ts";
import { discover } from "./discovery.ts";
import { microError, NS, peerMessage, reply, scriptedDeps } from "./testing/scripted-port.ts";

const engine = createValidationEngine();
const validate = (text: string) => engine.session().validateText(text);

function answering(answer: (request: string) => ReturnType<typeof reply>, extra = {}) {
  const s = scriptedDeps(extra);
  s.port.onRequest = (sent) => {
    s.clock.advance(7);
    return answer(String(JSON.parse(sent.text).request));
  };
  return s;
}

const card = (request: string, extra: Record<string, unknown>) =>
  reply(peerMessage("discovery.reply", request, 0, { name: "nats-tools", version: "0.0.5", protocols: [NS], ...extra }));

describe("discover", () => {
  it("sends a stamped discovery.request and reads a Gen 2 card with its evidence and the round trip", async () => {
    const { deps, port } = answering((r) => card(r, { tools: [{ name: "stream_info", description: "Shows", behavior: { read_only: true } }], model: "claude-sonnet-5" }), { validate });
    const r = await discover(deps, "nats-tools");
    expect(port.sent).toHaveLength(1);
    expect(port.sent[0]).toMatchObject({ subject: "choria.fisk-ai.discovery.nats-tools", via: "request", text: r.requestText });
    expect(JSON.parse(r.requestText)).toMatchObject({ protocol: `${NS}.discovery.request`, sequence: 0, sender: { name: "console-1" }, recipient: { name: "nats-tools" } });
    expect(r.rttMs).toBe(7);
    expect(r.outcome.kind).toBe("card");
    if (r.outcome.kind !== "card") return;
    expect(r.outcome.generation).toBe("gen2");
    expect(r.outcome.evidence).toEqual(["the card names a model (Gen 2 only)", "tools declare behavior (Gen 2 only): stream_info"]);
    expect(r.outcome.card).toEqual({ name: "nats-tools", version: "0.0.5", protocols: [NS], tools: [{ name: "stream_info", description: "Shows", behavior: { read_only: true } }], model: "claude-sonnet-5" });
    expect(r.outcome.verdict?.status).toBe("valid");
    expect(r.replyText).toContain('"name":"nats-tools"');
  });

  it("says either when nothing tells the generations apart, and gen1 for a tool served without a description", async () => {
    const plain = await discover(answering((r) => card(r, { tools: [{ name: "a", description: "A" }] })).deps, "nats-tools");
    expect(plain.outcome).toMatchObject({ kind: "card", generation: "either", evidence: [expect.stringContaining("nothing in the card")] });
    const old = await discover(answering((r) => card(r, { tools: [{ name: "a" }] })).deps, "nats-tools");
    expect(old.outcome).toMatchObject({ kind: "card", generation: "gen1", evidence: [expect.stringContaining("v0.0.1–v0.0.2 serves those): a")] });
  });

  it("reports a micro refusal, no responders, a timeout and other failures", async () => {
    const refused = await discover(answering(() => microError("400", 'unexpected message protocol: got "x", want "y"')).deps, "a");
    expect(refused.outcome).toEqual({ kind: "refused", code: "400", description: 'unexpected message protocol: got "x", want "y"' });
    expect(refused.replyHeaders?.["Nats-Service-Error-Code"]).toEqual(["400"]);
    const fail = (err: Error) => {
      const s = scriptedDeps();
      s.port.onRequest = () => Promise.reject(err);
      return discover(s.deps, "a", { timeoutMs: 50 });
    };
    expect((await fail(new NatsRequestError("no-responders", "503"))).outcome).toEqual({ kind: "no-such-agent" });
    expect((await fail(new NatsRequestError("timeout", "t"))).outcome).toEqual({ kind: "timeout", timeoutMs: 50 });
    expect((await fail(new NatsRequestError("closed", "connection closed"))).outcome).toEqual({ kind: "error", message: "connection closed" });
  });

  it("calls a reply that is not a valid discovery.reply invalid, keeping its text", async () => {
    const notJson = await discover(answering(() => reply("{nope")).deps, "a");
    expect(notJson.outcome).toMatchObject({ kind: "invalid", problem: expect.stringContaining("not JSON") });
    expect(notJson.replyText).toBe("{nope");
    const wrong = await discover(answering((r) => reply(peerMessage("tool.reply", r, 0))).deps, "a");
    expect(wrong.outcome).toMatchObject({ kind: "invalid", problem: `expected a ${NS}.discovery.reply, got ${NS}.tool.reply` });
    const noVersion = await discover(answering((r) => reply(peerMessage("discovery.reply", r, 0, { name: "a" })), { validate }).deps, "a");
    expect(noVersion.outcome).toMatchObject({ kind: "invalid", verdict: { status: "invalid" } });
    const unchecked = await discover(answering((r) => reply(peerMessage("discovery.reply", r, 0, { name: "a" }))).deps, "a");
    expect(unchecked.outcome).toEqual({ kind: "invalid", problem: "the card lacks its name or version" });
  });

  it("refuses an invalid identity before sending anything", async () => {
    for (const identity of ["", "svc.example", "with space", "a>"]) {
      const { deps, port } = scriptedDeps();
      const r = await discover(deps, identity);
      expect(r.outcome).toMatchObject({ kind: "error", message: expect.stringContaining("is not valid") });
      expect(port.sent).toEqual([]);
    }
  });

  it("refuses to send a request the validator finds invalid", async () => {
    const { deps, port } = scriptedDeps({ validate: () => ({ ...engine.session().validateText("{}"), status: "invalid" as const, issues: [{ pointer: "/sender", message: "bad", severity: "error" as const, source: "schema" as const }] }) });
    const r = await discover(deps, "a");
    expect(r.outcome).toEqual({ kind: "error", message: "refused to send an invalid message (invalid): /sender: bad" });
    expect(port.sent).toEqual([]);
  });
});
