/**
 * The fisk-ai client (src/core/fisk/client) against a real nats-server and the wire-level test
 * peer: listing, discovery, tool calls, raw mode and the tap. Cases of the note's §6.4/§6.5 that
 * apply to a client, by test name:
 *
 * - "lists live agents from $SRV.INFO…"                     micro listing of Gen 1 and Gen 2 agents
 * - "discovers a Gen 2 card…"                                discovery with generation evidence, verdict, rtt
 * - "discovers a Gen 1 card…"                                Gen 1 card: either / gen1 evidence
 * - "an identity nobody serves…"                             503 → no such agent (discovery and tool call)
 * - "a tool.request sent to the discovery subject…"          micro 400, empty body, description with "want"
 * - "discover, then call ping…"                              Gen 2 reply set: ack + final tool.reply, exit 0
 * - "a non-zero exit is a result…"                           exit 1 ran; in-process output verbatim
 * - "a Gen 1 peer answers with a single reply…"              Gen 1 single reply, and Gen 1 not available
 * - "a missing tool is not available…"                       in-band not available (ack false)
 * - "a capacity refusal…"                                    ack false + code capacity
 * - "a micro error surfaces with its code and text…"         micro 400 (size limit) and 500, empty body
 * - "a foreign terminal message on the inbox is dropped"     foreign before the ack and before the reply
 * - "a slow tool's keepalives…"                              ack, running-tool keepalives, final reply
 * - "an idle peer times out…"                                idle timeout (short idle, allowShortIdle)
 * - "raw mode sends an invalid message…"                     raw: 400 for a non-request on the task subject; silence after a Gen 1 reply
 * - "the tap sees a call's request and its replies paired"   tap: decode, validate, correlation by inbox
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { discoveryRequest, encodeFiskBytes, toolRequest } from "../../src/core/fisk/codec/index.ts";
import { DEFAULT_SENDER, FiskClient, startTap, type FiskClientDeps, type TapFrame } from "../../src/core/fisk/client/index.ts";
import { randomIds, systemClock, systemScheduler } from "../../src/core/env/index.ts";
import { loggedPort } from "../../src/core/nats/logged-port.ts";
import { tcpConnector } from "../../src/core/nats/node/tcp-connector.ts";
import type { NatsPort } from "../../src/core/nats/port.ts";
import { createValidationEngine } from "../../src/core/packs/index.ts";
import { WireLog } from "../../src/core/wire/index.ts";
import { startFiskPeer, type FiskPeer } from "../helpers/fisk-peer/index.ts";

const natsUrl = inject("natsUrl");
const NS = "io.choria.fisk-ai.v1";
const tag = (name: string) => `${name}-${crypto.randomUUID().slice(0, 8)}`;
const engine = createValidationEngine();
const clock = systemClock(performance, Date);
const wireLog = new WireLog(clock, 10_000);
const ports: NatsPort[] = [];
const peers: FiskPeer[] = [];

async function makeDeps(name: string): Promise<FiskClientDeps> {
  const raw = await tcpConnector().connect({ servers: natsUrl, name });
  ports.push(raw);
  const port = loggedPort(raw, wireLog, clock, randomIds((b) => crypto.getRandomValues(b)));
  return { port, clock, scheduler: systemScheduler(), random: (b) => crypto.getRandomValues(b), sender: DEFAULT_SENDER, validate: (t) => engine.session().validateText(t) };
}

let deps: FiskClientDeps;
let client: FiskClient;
let gen2: FiskPeer;
let gen1: FiskPeer;
let oldGen1: FiskPeer;

beforeAll(async () => {
  deps = await makeDeps("fisk-client-test");
  client = new FiskClient(deps);
  const start = async (...args: Parameters<typeof startFiskPeer>) => (peers.push(await startFiskPeer(...args)), peers.at(-1)!);
  gen2 = await start(natsUrl, {
    identity: tag("nats-tools"),
    model: "claude-sonnet-5",
    keepaliveMs: 20,
    concurrency: 4,
    tools: [
      { name: "ping", description: "Answers pong", behavior: { read_only: true, idempotent: true }, script: { command: "ping", output: "pong\n" } },
      { name: "stream_rm", description: "Removes a stream", script: { exitCode: 1, output: "nats: error: stream not found\n" } },
      { name: "echo", description: "Echoes", script: { inProcess: true, run: (input) => ({ output: JSON.stringify(input ?? {}) }) } },
      { name: "busy", description: "At capacity", script: { forceCapacity: true } },
      { name: "late", description: "Foreign reply first", script: { foreign: "before-reply" } },
      { name: "early", description: "Foreign reply before the ack", script: { foreign: "before-ack" } },
      { name: "slow", description: "Slow", script: { keepalives: 2 } },
      { name: "silent", description: "Never answers", script: { silent: true } },
      { name: "flaky", description: "Micro 500", script: { microError: { code: 500, description: "tool failed" } } },
    ],
  });
  gen1 = await start(natsUrl, { identity: tag("legacy"), generation: "gen1", tools: [{ name: "stream_info", description: "Shows a stream", script: { exitCode: 1, output: "nats: error: stream not found\n" } }] });
  oldGen1 = await start(natsUrl, { identity: tag("oldest"), generation: "gen1", serveUndescribed: true, tools: [{ name: "ping", description: "Pong" }, { name: "undescribed" }] });
});

afterAll(async () => {
  await Promise.all(peers.map((p) => p.stop()));
  await Promise.all(ports.map((p) => p.close()));
});

describe("the fisk-ai client: listing and discovery", () => {
  it("lists live agents from $SRV.INFO with their instance ids and endpoints", async () => {
    const listing = await client.listAgents({ stallMs: 200 });
    const mine = (p: FiskPeer) => listing.agents.find((a) => a.identity === p.identity);
    expect(mine(gen2)).toEqual({ identity: gen2.identity, instanceId: gen2.serviceId, version: "0.0.0", endpoints: ["discovery", "tool", "task"].map((n) => ({ name: n, subject: `choria.fisk-ai.${n}.${gen2.identity}` })) });
    expect(mine(gen1)?.endpoints.map((e) => e.name)).toEqual(["discovery", "tool"]);
    expect(listing.elapsedMs).toBeGreaterThanOrEqual(200);
  });

  it("discovers a Gen 2 card, with its generation evidence, a valid verdict and the round trip", async () => {
    const r = await client.discover(gen2.identity);
    expect(r.subject).toBe(`choria.fisk-ai.discovery.${gen2.identity}`);
    expect(JSON.parse(r.requestText)).toMatchObject({ protocol: `${NS}.discovery.request`, sender: DEFAULT_SENDER, recipient: { name: gen2.identity } });
    expect(r.rttMs).toBeGreaterThan(0);
    expect(r.outcome).toMatchObject({ kind: "card", generation: "gen2", verdict: { status: "valid" }, card: { name: gen2.identity, version: "0.0.5", model: "claude-sonnet-5" } });
    if (r.outcome.kind !== "card") return;
    expect(r.outcome.evidence).toEqual(["the card names a model (Gen 2 only)", "tools declare behavior (Gen 2 only): ping"]);
    expect(r.outcome.card.tools?.map((t) => t.name)).toEqual(["ping", "stream_rm", "echo", "busy", "late", "early", "slow", "silent", "flaky"]);
    expect(JSON.parse(r.replyText!).request).toBe(JSON.parse(r.requestText).request);
  });

  it("discovers a Gen 1 card: either when nothing tells, gen1 when undescribed tools are served", async () => {
    const plain = await client.discover(gen1.identity);
    expect(plain.outcome).toMatchObject({ kind: "card", generation: "either", verdict: { status: "valid" } });
    const oldest = await client.discover(oldGen1.identity);
    expect(oldest.outcome).toMatchObject({ kind: "card", generation: "gen1", evidence: [expect.stringContaining("undescribed")] });
  });

  it("an identity nobody serves is no such agent (503), for discovery and for a tool call", async () => {
    const ghost = tag("ghost");
    expect((await client.discover(ghost)).outcome).toEqual({ kind: "no-such-agent" });
    const call = await client.callTool(ghost, "ping", null);
    expect(call.outcome).toEqual({ kind: "no-such-agent" });
    expect(call.set.entries.map((e) => e.disposition)).toEqual(["no-responders"]);
  });

  it("a tool.request sent to the discovery subject gets a micro 400 with an empty body and a description with want", async () => {
    const ctx = { clock, random: deps.random, sender: DEFAULT_SENDER };
    const r = await client.sendRaw({ subject: `choria.fisk-ai.discovery.${gen2.identity}`, body: encodeFiskBytes(toolRequest("ping", null, ctx)), idleMs: 2000 });
    expect(r.end).toBe("refused");
    expect(r.entries).toHaveLength(1);
    expect(r.entries[0]!.message.data).toHaveLength(0);
    expect(r.entries[0]!.note).toMatch(/^400: unexpected message protocol: got ".*tool\.request", want ".*discovery\.request"$/);
    expect(discoveryRequest(ctx).protocol).toBe(`${NS}.discovery.request`);
  });
});

describe("the fisk-ai client: tool calls", () => {
  it("discover, then call ping: a Gen 2 reply set of ack and final tool.reply, exit 0", async () => {
    await client.discover(gen2.identity);
    const seen: string[] = [];
    const r = await client.callTool(gen2.identity, "ping", null, { onEntry: (e) => seen.push(e.disposition) });
    expect(r.outcome).toEqual({ kind: "ran", exitCode: 0, output: "pong\n", command: "ping", truncated: false });
    expect(r.set.entries.map((e) => [e.disposition, e.sequence, e.final])).toEqual([
      ["ack", 1, false],
      ["terminal", 2, true],
    ]);
    expect(seen).toEqual(["ack", "terminal"]);
    expect(r.verdicts?.map((v) => v?.status)).toEqual(["valid", "valid"]);
    expect(gen2.received.find((x) => x.text === r.requestText)?.reply).toMatch(/^_INBOX\.[0-9A-Za-z]{22}$/);
    const logged = wireLog.snapshot.entries.filter((e) => e.correlationId === gen2.received.find((x) => x.text === r.requestText)?.reply);
    expect(logged.map((e) => e.direction)).toEqual(["out", "in", "in"]);
  });

  it("a non-zero exit is a result, and an in-process tool's output comes back verbatim", async () => {
    expect((await client.callTool(gen2.identity, "stream_rm", null)).outcome).toEqual({ kind: "ran", exitCode: 1, output: "nats: error: stream not found\n", command: "stream rm", truncated: false });
    expect((await client.callTool(gen2.identity, "echo", { a: "<b>" })).outcome).toEqual({ kind: "output", output: '{"a":"<b>"}' });
  });

  it("a Gen 1 peer answers with a single reply, and says not available in it", async () => {
    const r = await client.callTool(gen1.identity, "stream_info", null);
    expect(r.outcome).toMatchObject({ kind: "ran", exitCode: 1 });
    expect(r.set.entries.map((e) => [e.disposition, e.sequence, e.final])).toEqual([["terminal", 0, false]]);
    expect((await client.callTool(gen1.identity, "nope", null)).outcome).toEqual({ kind: "not-available", reason: 'tool "nope" is not available' });
  });

  it("a missing tool is not available, in band after an ack that refuses", async () => {
    const r = await client.callTool(gen2.identity, "nope", null);
    expect(r.outcome).toEqual({ kind: "not-available", reason: 'tool "nope" is not available' });
    expect(r.set.entries[0]?.value).toMatchObject({ accepted: false });
  });

  it("a capacity refusal is reported with its reason", async () => {
    const r = await client.callTool(gen2.identity, "busy", null);
    expect(r.outcome).toMatchObject({ kind: "capacity", reason: expect.stringContaining("did not run: the agent is already running its maximum of 4") });
  });

  it("a micro error surfaces with its code and text, over an empty body", async () => {
    const blob = { blob: "x".repeat(786_433) };
    // The validator refuses the oversized body before it is sent; without one, the peer refuses it.
    expect((await client.callTool(gen2.identity, "ping", blob)).outcome).toMatchObject({ kind: "send-failed", message: expect.stringContaining("786,432-byte cap") });
    const { validate: _validate, ...unchecked } = deps;
    const big = await new FiskClient(unchecked).callTool(gen2.identity, "ping", blob);
    expect(big.outcome).toEqual({ kind: "refused", code: "400", description: "request exceeds 786432 bytes" });
    expect(big.set.entries[0]!.message.data).toHaveLength(0);
    expect((await client.callTool(gen2.identity, "flaky", null)).outcome).toEqual({ kind: "refused", code: "500", description: "tool failed" });
  });

  it("a foreign terminal message on the inbox is dropped", async () => {
    for (const tool of ["late", "early"]) {
      const r = await client.callTool(gen2.identity, tool, null);
      expect(r.outcome, tool).toMatchObject({ kind: "ran", exitCode: 0 });
      expect(r.set.entries.filter((e) => e.disposition === "foreign")).toHaveLength(1);
      expect(r.set.entries.filter((e) => e.disposition !== "foreign").map((e) => e.disposition)).toEqual(["ack", "terminal"]);
    }
  });

  it("a slow tool's keepalives arrive between the ack and the final reply", async () => {
    const r = await client.callTool(gen2.identity, "slow", null);
    expect(r.set.entries.map((e) => [e.disposition, e.protocol, e.sequence])).toEqual([
      ["ack", `${NS}.ack`, 1],
      ["event", `${NS}.event.status`, 2],
      ["event", `${NS}.event.status`, 3],
      ["terminal", `${NS}.tool.reply`, 4],
    ]);
    expect(r.set.entries[1]?.value?.block).toEqual({ phase: "running-tool" });
    expect(r.outcome.kind).toBe("ran");
  });

  it("an idle peer times out after the idle time", async () => {
    const started = performance.now();
    const r = await client.callTool(gen2.identity, "silent", null, { idleMs: 150, allowShortIdle: true });
    expect(r.outcome).toEqual({ kind: "idle-timeout", idleMs: 150 });
    expect(r.set.entries.map((e) => e.disposition)).toEqual(["ack"]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it("raw mode sends an invalid message and shows the refusal; after a single reply it waits for silence", async () => {
    const r = await client.sendRaw({ subject: `choria.fisk-ai.task.${gen2.identity}`, body: new TextEncoder().encode(`{"protocol":"${NS}.cancel"}`), idleMs: 2000 });
    expect(r.end).toBe("refused");
    expect(r.entries[0]!.note).toMatch(/^400: the request is not a valid v1 message: /);
    const ctx = { clock, random: deps.random, sender: DEFAULT_SENDER, recipient: { name: gen1.identity } };
    const single = await client.sendRaw({ subject: `choria.fisk-ai.tool.${gen1.identity}`, body: encodeFiskBytes(toolRequest("stream_info", null, ctx)), idleMs: 100 });
    expect(single.end).toBe("silence");
    expect(single.entries.map((e) => e.disposition)).toEqual(["terminal"]);
  });

  it("the tap sees a call's request and its replies paired", async () => {
    const tapDeps = await makeDeps("fisk-tap-test");
    const frames: TapFrame[] = [];
    const tap = startTap(tapDeps, [`choria.fisk-ai.tool.${gen2.identity}`, "_INBOX.>"], (f) => frames.push(f));
    await tapDeps.port.flush();
    const r = await client.callTool(gen2.identity, "stream_rm", null);
    const inbox = gen2.received.find((x) => x.text === r.requestText)!.reply!;
    await expect.poll(() => frames.filter((f) => f.correlation === inbox).length).toBe(3);
    tap.stop();
    const paired = frames.filter((f) => f.correlation === inbox);
    expect(paired.map((f) => (f.decoded?.ok ? f.decoded.kind : "?"))).toEqual(["tool.request", "ack", "tool.reply"]);
    expect(paired.map((f) => f.verdict?.status)).toEqual(["valid", "valid", "valid"]);
    expect(paired[0]!.message.subject).toBe(`choria.fisk-ai.tool.${gen2.identity}`);
    expect(tap.failures).toEqual([]);
  });
});

describe("the peers behind these tests", () => {
  it("saw no handler failures", () => {
    for (const p of peers) expect(p.failures).toEqual([]);
  });
});
