/**
 * Patchbay's served fisk-ai agent (src/core/serving/fisk) on a real nats-server, checked by
 * Patchbay's own FiskClient and at the wire level with the fisk-peer raw client; the agent and
 * wire checks run twice, on one server and across a three-node cluster (agent and client on
 * different nodes):
 *
 * - "FiskClient discovers the card…"              one card, confirm-gated tool absent, Gen 2 evidence, valid
 * - "FiskClient calls every served demo tool…"     echo, add, sleep, fail, large-output, slow; confirm not available
 * - "$SRV.INFO finds the agent…"                   micro listing, PING and STATS under the identity
 * - "a reply set is numbered…"                     header order, sequences gap-free from 1, final header only last
 * - "a slow tool sends keepalives…"                running-tool keepalives at a short interval
 * - "a full agent refuses for capacity…"           ack false + code capacity, nothing run, slot reusable
 * - "bad input gets a micro 400…"                  empty body, fisk-ai wording, both subjects
 * - "the Gen 1 switch answers one tool.reply…"     single reply, sequence 0, no final header, strict card
 * - "the backend's routes start, report and stop" POST start/stop, GET status (served set, subjects), a command tool
 * - "refuses a bad start…"                         invalid toolkit/options, 401 without the token
 * - "a connection that closes under the agent…"    serving ends, status explains, start works again
 */
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEFAULT_SENDER, FiskClient, type FiskClientDeps } from "../../src/core/fisk/client/index.ts";
import { systemClock, systemScheduler } from "../../src/core/env/index.ts";
import { tcpConnector } from "../../src/core/nats/node/tcp-connector.ts";
import type { NatsPort } from "../../src/core/nats/port.ts";
import { createValidationEngine } from "../../src/core/packs/index.ts";
import { DEMO_TOOLKIT } from "../../src/core/serving/demo-toolkit.ts";
import { engineValidator, type FiskServeOptions, type FiskServer } from "../../src/core/serving/fisk/index.ts";
import { executeTool } from "../../src/core/serving/tool-executor.ts";
import { call, clientRequest, openInbox } from "../helpers/fisk-peer/index.ts";
import { eventually, startNatsCluster, type NatsCluster } from "../helpers/nats-cluster.ts";
import { expectFaithful, expectReplySet } from "../helpers/fisk-peer/expect-wire.ts";
import { errorOf, send, startTestBackend, type TestBackend } from "../helpers/http-client.ts";
import { createNatsServe } from "../../server/serving/nats-serve.ts";
import { silentLogger } from "../../src/core/env/index.ts";
import { startDemoAgent } from "../helpers/demo-agent.ts";

const natsUrl = inject("natsUrl");
const NS = "io.choria.fisk-ai.v1";
const engine = createValidationEngine();
const tag = (name: string) => `${name}-${crypto.randomUUID().slice(0, 8)}`;
const ports: NatsPort[] = [];
const servers: FiskServer[] = [];
let nc: NatsConnection;
let client: FiskClient;

let agentUrl = natsUrl;
let clientUrl = natsUrl;

async function serve(options: Partial<FiskServeOptions> = {}): Promise<FiskServer> {
  const port = await tcpConnector().connect({ servers: agentUrl, name: "serve-nats-test" });
  ports.push(port);
  const server = await startDemoAgent(port, tag("demo"), { validate: engineValidator(engine), ...options });
  servers.push(server);
  // On a cluster the agent subscribed on another node than the client's: wait until its interest got there.
  if (agentUrl !== clientUrl) await eventually(async () => (await client.discover(server.identity, { timeoutMs: 1000 })).outcome.kind === "card", `${server.identity} reachable from the client's node`);
  return server;
}

/** The demo toolkit in its file form, plus a command tool that runs a real program. */
const toolkitFile = (name: string) => ({
  format: "patchbay.toolkit",
  version: 1,
  name,
  description: DEMO_TOOLKIT.description,
  tools: [
    ...DEMO_TOOLKIT.tools.map((t) => ({ name: t.name, description: t.description, tags: t.tags, inputSchema: t.inputSchema, run: t.impl })),
    { name: "say", description: "Prints its word with /bin/echo.", inputSchema: { type: "object", properties: { word: { type: "string" } } }, run: { command: ["/bin/echo"], positionals: ["word"] } },
  ],
});

const toolBody = (identity: string, name: string, input?: Record<string, unknown>) => clientRequest("tool.request", identity, { name, ...(input ? { input } : {}) });

let agent: FiskServer;

/** The same checks on one server, and across a three-node cluster (the agent on node 3, the client on node 1). */
describe.each(["a single server", "a three-node cluster"] as const)("on %s", (target) => {
  let cluster: NatsCluster | undefined;
  beforeAll(async () => {
    if (target === "a three-node cluster") {
      cluster = await startNatsCluster();
      clientUrl = cluster.nodes[0]!.url;
      agentUrl = cluster.nodes[2]!.url;
    } else {
      clientUrl = agentUrl = natsUrl;
    }
    nc = await connect({ servers: clientUrl, name: "serve-nats-wire" });
    const port = await tcpConnector().connect({ servers: clientUrl, name: "serve-nats-client" });
    ports.push(port);
    const deps: FiskClientDeps = { port, clock: systemClock(performance, Date), scheduler: systemScheduler(), random: (b) => crypto.getRandomValues(b), sender: DEFAULT_SENDER, validate: (t) => engine.session().validateText(t) };
    client = new FiskClient(deps);
    agent = await serve({ concurrency: 4 });
  }, 30_000);

  afterAll(async () => {
    await Promise.all(servers.splice(0).map((s) => s.stop()));
    await Promise.all(ports.splice(0).map((p) => p.close()));
    await nc.close();
    await cluster?.stop();
    clientUrl = agentUrl = natsUrl;
  });

  describe("the served agent, seen by FiskClient", () => {
    it("FiskClient discovers the card: served tools only, valid, Gen 2", async () => {
      const found = await client.discover(agent.identity);
      expect(found.outcome.kind).toBe("card");
      if (found.outcome.kind !== "card") return;
      expect(found.outcome.verdict?.status).toBe("valid");
      expect(found.outcome.generation).toBe("gen2");
      const card = found.outcome.card;
      expect(card).toMatchObject({ name: agent.identity, version: "0.1.0", protocols: [NS] });
      expect(card.tools?.map((t) => t.name)).toEqual(["echo", "add", "sleep", "fail", "large-output", "slow"]);
      expect(card.tools?.find((t) => t.name === "add")).toMatchObject({ description: "Adds two numbers.\n\nTags: ai:read_only, ai:idempotent", behavior: { read_only: true, idempotent: true } });
    });

    it("FiskClient calls every served demo tool and gets its result; the confirm tool is not available", async () => {
      const outcome = async (tool: string, input: Record<string, unknown> | null) => {
        const r = await client.callTool(agent.identity, tool, input);
        for (const v of r.verdicts ?? []) expect(v?.status).toBe("valid");
        return r.outcome;
      };
      expect(await outcome("echo", { message: "hello" })).toEqual({ kind: "output", output: "hello" });
      expect(await outcome("add", { a: 2, b: 3.5 })).toEqual({ kind: "output", output: "5.5" });
      expect(await outcome("sleep", { seconds: 0.05 })).toEqual({ kind: "output", output: "slept 0.05 s" });
      expect(await outcome("fail", { exit_code: 4, output: "boom\n" })).toEqual({ kind: "ran", exitCode: 4, output: "boom\n", command: "fail 4", truncated: false });
      const large = await outcome("large-output", { bytes: 200_000 });
      expect(large).toMatchObject({ kind: "ran", exitCode: 0, command: "large-output 200000", truncated: true });
      expect(await outcome("slow", { seconds: 0.05 })).toEqual({ kind: "output", output: "finished after 0.05 s" });
      expect(await outcome("echo", {})).toEqual({ kind: "harness-failure", output: '"message" must be a string' });
      expect(await outcome("confirm", { action: "x" })).toEqual({ kind: "not-available", reason: 'tool "confirm" is not available' });
    });

    it("$SRV.INFO finds the agent with its three endpoints and instance; PING and STATS answer under its identity", async () => {
      const listing = await client.listAgents({ stallMs: 200 });
      const mine = listing.agents.find((a) => a.identity === agent.identity);
      expect(mine).toMatchObject({ version: "0.0.0", instanceId: agent.status().serviceId });
      expect(mine?.endpoints).toEqual([
        { name: "discovery", subject: `choria.fisk-ai.discovery.${agent.identity}` },
        { name: "tool", subject: `choria.fisk-ai.tool.${agent.identity}` },
        { name: "task", subject: `choria.fisk-ai.task.${agent.identity}` },
      ]);
      expect(mine?.instance).toBe(agent.instance);
      const ping = await nc.request(`$SRV.PING.${agent.identity}`, "", { timeout: 2000 });
      expect(ping.json()).toMatchObject({ type: "io.nats.micro.v1.ping_response", name: agent.identity });
      const stats = await nc.request(`$SRV.STATS.${agent.identity}.${agent.status().serviceId}`, "", { timeout: 2000 });
      const tool = (stats.json() as { endpoints: { name: string; num_requests: number; queue_group: string }[] }).endpoints[1];
      expect(tool?.name).toBe("tool");
      expect(tool?.queue_group).toBe(agent.identity);
      expect(tool?.num_requests).toBeGreaterThan(0);
    });
  });

  describe("the wire, message by message", () => {
    it("a reply set is numbered from 1 without gaps, header first, and only the last is final", async () => {
      const request = "req-wire-1";
      const set = await call(nc, `choria.fisk-ai.tool.${agent.identity}`, clientRequest("tool.request", agent.identity, { name: "echo", input: { message: "a&b" } }, { request }));
      expectReplySet(set, request, agent.identity);
      expect(set.map((r) => r.json?.protocol)).toEqual([`${NS}.ack`, `${NS}.tool.reply`]);
      expect(set[1]!.text).toContain('"output":"a\\u0026b"');
      expect(set[1]!.headers["Fisk-AI-Stream-Final"]).toEqual(["true"]);
    });

    it("a slow tool sends running-tool keepalives while it runs", async () => {
      const quick = await serve({ keepaliveMs: 30 });
      const request = "req-slow-1";
      const set = await call(nc, `choria.fisk-ai.tool.${quick.identity}`, clientRequest("tool.request", quick.identity, { name: "slow", input: { seconds: 0.3 } }, { request }));
      expectReplySet(set, request, quick.identity);
      const keepalives = set.filter((r) => r.json?.protocol === `${NS}.event.status`);
      expect(keepalives.length).toBeGreaterThanOrEqual(2);
      for (const k of keepalives) expect(k.json?.block).toEqual({ phase: "running-tool" });
      expect(set.at(-1)!.json).toMatchObject({ protocol: `${NS}.tool.reply`, output: "finished after 0.3 s" });
    });

    it("a full agent refuses for capacity at once, runs nothing, and the slot is reusable afterwards", async () => {
      let started = 0;
      const small = await serve({ concurrency: 2, execute: (tool, input, ctx) => (started++, executeTool(tool, input, ctx)) });
      const subject = `choria.fisk-ai.tool.${small.identity}`;
      const running = [call(nc, subject, toolBody(small.identity, "slow", { seconds: 0.4 })), call(nc, subject, toolBody(small.identity, "slow", { seconds: 0.4 }))];
      for (let waited = 0; small.status().active < 2 && waited < 5000; waited += 10) await new Promise((r) => setTimeout(r, 10));
      const refused = await call(nc, subject, toolBody(small.identity, "echo", { message: "x" }));
      const reason = `tool "echo" on agent "${small.identity}" did not run: the agent is already running its maximum of 2 concurrent tool calls`;
      expect(refused.map((r) => r.json)).toMatchObject([
        { protocol: `${NS}.ack`, sequence: 1, accepted: false, reason },
        { protocol: `${NS}.tool.reply`, sequence: 2, is_error: true, output: reason, code: "capacity" },
      ]);
      expect(refused.map((r) => r.final)).toEqual([false, true]);
      expect(started).toBe(2);
      for (const set of await Promise.all(running)) expect(set.at(-1)!.json).toMatchObject({ output: "finished after 0.4 s" });
      const again = await client.callTool(small.identity, "echo", { message: "slot free" });
      expect(again.outcome).toEqual({ kind: "output", output: "slot free" });
    });

    it("bad input gets a micro 400 with an empty body, in fisk-ai's words, on both subjects", async () => {
      const tool = `choria.fisk-ai.tool.${agent.identity}`;
      const discovery = `choria.fisk-ai.discovery.${agent.identity}`;
      const cases: [string, string | Uint8Array, RegExp][] = [
        [tool, "not json", /^invalid request: /],
        [tool, new Uint8Array(786_433).fill(0x20), /^request exceeds 786432 bytes$/],
        [tool, clientRequest("discovery.request", agent.identity), /^unexpected message protocol: got "io\.choria\.fisk-ai\.v1\.discovery\.request", want "io\.choria\.fisk-ai\.v1\.tool\.request"$/],
        [discovery, toolBody(agent.identity, "echo"), /want "io\.choria\.fisk-ai\.v1\.discovery\.request"/],
        [tool, clientRequest("bogus", agent.identity, { name: "echo" }), /^invalid request: /],
        [tool, clientRequest("tool.request", agent.identity, { name: 7 }), /^invalid request: /],
      ];
      for (const [subject, body, description] of cases) {
        const [reply, ...rest] = await call(nc, subject, body);
        expect(rest).toEqual([]);
        expect(reply!.text).toBe("");
        expect(reply!.microError?.code).toBe("400");
        expect(reply!.microError?.description).toMatch(description);
      }
      const refused = await client.callTool(agent.identity, "echo", { message: "x" }, { traceparent: "not-checked-by-gen2" });
      expect(refused.outcome).toEqual({ kind: "output", output: "x" });
    });

    it("the Gen 1 switch answers one tool.reply with sequence 0 and no final header", async () => {
      const legacy = await serve({ generation: "gen1" });
      const reader = openInbox(nc);
      try {
        await nc.flush();
        nc.publish(`choria.fisk-ai.tool.${legacy.identity}`, toolBody(legacy.identity, "fail", { exit_code: 2 }), { reply: reader.inbox });
        const reply = await reader.next();
        expect(reply.final).toBe(false);
        expect(reply.json).toMatchObject({ protocol: `${NS}.tool.reply`, sequence: 0, output: "exiting with 2\n", exec: { command: "fail 2", exit_code: 2 } });
        expectFaithful(reply.text, "fisk-ai/gen1-v0.0.3");
        expect(await reader.quietFor(150)).toEqual([]);
      } finally {
        reader.close();
      }
      const found = await client.discover(legacy.identity);
      expect(found.outcome.kind === "card" && found.outcome.generation).not.toBe("gen2");
      expectFaithful(found.replyText ?? "", "fisk-ai/gen1-v0.0.3");
      expect((await client.callTool(legacy.identity, "echo", { message: "old" })).outcome).toEqual({ kind: "output", output: "old" });
      expect((await client.callTool(legacy.identity, "confirm", { action: "x" })).outcome).toEqual({ kind: "not-available", reason: 'tool "confirm" is not available' });
    });
  });
});

describe("the backend's /api/serve/nats routes", () => {
  let t: TestBackend;
  beforeAll(async () => {
    t = await startTestBackend({ nats: { mode: "external", url: natsUrl } });
    const port = await tcpConnector().connect({ servers: natsUrl, name: "serve-nats-api-client" });
    ports.push(port);
    client = new FiskClient({ port, clock: systemClock(performance, Date), scheduler: systemScheduler(), random: (b) => crypto.getRandomValues(b), sender: DEFAULT_SENDER });
  });
  afterAll(async () => {
    await t.close();
    await Promise.all(ports.splice(0).map((p) => p.close()));
  });
  const api = (method: string, path: string, body?: unknown) =>
    send({ port: t.port, method, path, headers: { ...t.auth, ...(body === undefined ? {} : { "content-type": "application/json" }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

  it("the backend's routes start, report and stop the agent; the status names the served set and subjects", async () => {
    const identity = tag("api-demo");
    const before = (await api("GET", "/api/serve/nats/status")).json<{ serving: boolean; served: { name: string; served: boolean; reason: string }[] }>();
    expect(before.serving).toBe(false);
    expect(before.served.find((e) => e.name === "confirm")).toEqual({ name: "confirm", served: false, reason: "needs approval (ai:confirm), and a peer agent has no operator to ask" });

    const started = await api("POST", "/api/serve/nats/start", { toolkit: toolkitFile(identity), concurrency: 3 });
    expect(started.status).toBe(200);
    expect(started.json()).toMatchObject({ serving: true, identity, concurrency: 3, generation: "gen2", subjects: { discovery: `choria.fisk-ai.discovery.${identity}`, tool: `choria.fisk-ai.tool.${identity}` } });
    expect((await api("POST", "/api/serve/nats/start", {})).status).toBe(409);
    expect((await client.callTool(identity, "echo", { message: "via the backend" })).outcome).toEqual({ kind: "output", output: "via the backend" });
    // A command tool runs through the Node runner; the reply names the command without the program's path.
    expect((await client.callTool(identity, "say", { word: "hello" })).outcome).toEqual({ kind: "ran", exitCode: 0, output: "-- hello\n", command: "echo -- hello", truncated: false });

    const stopped = await api("POST", "/api/serve/nats/stop");
    expect(stopped.json()).toMatchObject({ serving: false, identity });
    expect((await client.discover(identity, { timeoutMs: 2000 })).outcome.kind).toBe("no-such-agent");
  });

  it("the console's agent can join an identity under its own instance name, and says which node it is on", async () => {
    const identity = tag("joined");
    const started = await api("POST", "/api/serve/nats/start", { identity, instance: "console-1" });
    expect(started.json()).toMatchObject({ serving: true, identity, instance: "console-1", connection: { state: "connected", reconnects: 0, node: { name: expect.any(String), id: expect.any(String) } } });
    const listing = await client.listInstances(identity, { stallMs: 200 });
    expect(listing.kind === "instances" && listing.instances.map((i) => i.instance)).toEqual(["console-1"]);
    expect((await api("POST", "/api/serve/nats/start", { identity: "a.b" })).status).toBe(400);
    await api("POST", "/api/serve/nats/stop");
    expect((await api("POST", "/api/serve/nats/start", { instance: "a b" })).status).toBe(400);
  });

  it("refuses a bad start with a plain sentence, and unauthenticated calls", async () => {
    const bad = await api("POST", "/api/serve/nats/start", { toolkit: { format: "patchbay.toolkit", version: 1, name: "x y", tools: [] } });
    expect(bad.status).toBe(400);
    expect(errorOf(bad)).toMatchObject({ code: "invalid_toolkit", message: expect.stringContaining("/name") });
    expect((await api("POST", "/api/serve/nats/start", { concurrency: 0 })).status).toBe(400);
    expect((await api("POST", "/api/serve/nats/start", { generation: "gen3" })).status).toBe(400);
    expect((await send({ port: t.port, method: "GET", path: "/api/serve/nats/status", headers: {} })).status).toBe(401);
  });

  it("a connection that closes under the agent ends the serving, and the status says so", async () => {
    let agentPort: NatsPort | undefined;
    const serveNats = createNatsServe({
      logger: silentLogger,
      nats: () => ({ url: natsUrl }),
      connector: { connect: async (o) => (agentPort = await tcpConnector().connect(o)) },
      defaultToolkit: () => ({ ...DEMO_TOOLKIT, name: tag("closing") }),
    });
    expect(await serveNats.start({})).toMatchObject({ serving: true, server: expect.stringContaining("127.0.0.1") });
    await agentPort!.close();
    for (let waited = 0; serveNats.status().serving && waited < 2000; waited += 10) await new Promise((r) => setTimeout(r, 10));
    expect(serveNats.status()).toMatchObject({ serving: false, message: expect.stringMatching(/^the NATS connection closed/) });
    expect((await serveNats.start({})).serving).toBe(true);
    expect(await serveNats.stop()).toMatchObject({ serving: false });
  });
});
