import { connect, headers, type NatsConnection, RequestError } from "@nats-io/transport-node";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startFiskPeer, type FiskPeer, type PeerTool, type TaskScript } from "../helpers/fisk-peer/index.ts";
import { expectFaithful, expectReplySet, HEADER_ORDER, KSUID } from "../helpers/fisk-peer/expect-wire.ts";
import { call, clientRequest, endsRead, openInbox, received } from "../helpers/fisk-peer/raw-client.ts";

const natsUrl = inject("natsUrl");
const NS = "io.choria.fisk-ai.v1";
// Subjects spelled out from the note, independent of the peer's own helper.
const subject = (kind: string, ...parts: string[]) => ["choria.fisk-ai", kind, ...parts].join(".");
const tag = (name: string) => `${name}-${crypto.randomUUID().slice(0, 8)}`;

const TOOLS: PeerTool[] = [
  {
    name: "stream_info",
    description: "Shows information about a stream\n\nTags: ai:read_only, ai:idempotent",
    input_schema: { type: "object", required: ["stream"], properties: { stream: { type: "string" }, json: { type: "boolean" } } },
    behavior: { read_only: true, idempotent: true },
    script: { command: "stream info -- ORDERS", output: "Information for Stream ORDERS\n" },
  },
  { name: "stream_rm", description: "Removes a stream", script: { keepalives: 2, exitCode: 1, output: "nats: error: stream not found\n" } },
  { name: "stream_report", description: "Reports", script: { delayMs: 110 } },
  { name: "echo", description: "Echoes its input", script: { inProcess: true, run: (input) => ({ output: JSON.stringify(input ?? {}) }) } },
  { name: "busy", description: "Always at capacity", script: { forceCapacity: true } },
  { name: "late", description: "A foreign reply arrives first", script: { foreign: "before-reply" } },
  { name: "flaky", description: "Micro 500", script: { microError: { code: 500, description: "tool failed" } } },
  { name: "undescribed" },
];

let nc: NatsConnection;
let peer: FiskPeer;
const peers: FiskPeer[] = [];
const start = async (...args: Parameters<typeof startFiskPeer>) => {
  const p = await startFiskPeer(...args);
  peers.push(p);
  return p;
};

beforeAll(async () => {
  nc = await connect({ servers: natsUrl, name: "fisk-peer-test" });
  peer = await start(natsUrl, { identity: tag("nats-tools"), tools: TOOLS, keepaliveMs: 20, concurrency: 4, model: "claude-sonnet-5", telemetry: true });
});

afterAll(async () => {
  await Promise.all(peers.map((p) => p.stop()));
  await nc?.close();
});

const tool = (name: string, input?: Record<string, unknown>, request = tag("call")) =>
  [request, clientRequest("tool.request", peer.identity, input ? { name, input } : { name }, { request })] as const;

describe("the fisk-ai test peer over a real nats-server (Gen 2)", () => {
  it("answers discovery with one card that echoes the request, tools sorted and described", async () => {
    const [request] = tool("x");
    const msg = await nc.request(subject("discovery", peer.identity), clientRequest("discovery.request", peer.identity, {}, { request }), { timeout: 2000 });
    const r = JSON.parse(msg.string()) as Record<string, unknown>;
    expectFaithful(msg.string());
    expect(msg.headers).toBeUndefined();
    expect(Object.keys(r)).toEqual([...HEADER_ORDER, "name", "version", "protocols", "tools", "model", "telemetry"]);
    expect(r).toMatchObject({ protocol: `${NS}.discovery.reply`, request, conversation: request, sequence: 0, sender: { name: peer.identity }, recipient: { name: "console-1" } });
    expect(r).toMatchObject({ name: peer.identity, version: "0.0.5", protocols: [NS], model: "claude-sonnet-5", telemetry: true });
    const tools = r.tools as Record<string, unknown>[];
    expect(tools.map((t) => t.name)).not.toContain("undescribed");
    expect(tools[0]).toEqual({ ...TOOLS[0], script: undefined, input_schema: expect.anything() as unknown });
    expect(msg.string()).toContain('"input_schema":{"properties":{"json":{"type":"boolean"},"stream":{"type":"string"}},"required":["stream"],"type":"object"}');
    expect(tools[1]).toEqual({ name: "stream_rm", description: "Removes a stream", input_schema: { type: "object" } });
  });

  it("answers a tool call with a reply set: ack, keepalives, then the final tool.reply", async () => {
    const [request, body] = tool("stream_rm");
    const set = await call(nc, subject("tool", peer.identity), body);
    expectReplySet(set, request, peer.identity);
    expect(set.map((r) => r.json!.protocol)).toEqual([`${NS}.ack`, `${NS}.event.status`, `${NS}.event.status`, `${NS}.tool.reply`]);
    expect(set[0]!.json).toMatchObject({ accepted: true });
    expect(set[1]!.json!.block).toEqual({ phase: "running-tool" });
    expect(set[3]!.headers).toEqual({ "Fisk-AI-Stream-Final": ["true"] });
    // A non-zero exit is a result, not an error.
    expect(set[3]!.json).toMatchObject({ output: "nats: error: stream not found\n", exec: { command: "stream rm", exit_code: 1 } });
    expect(set[3]!.json).not.toHaveProperty("is_error");
  });

  it("sends running-tool keepalives from a ticker while a slow tool runs", async () => {
    const [request, body] = tool("stream_report");
    const set = await call(nc, subject("tool", peer.identity), body);
    expectReplySet(set, request, peer.identity);
    expect(set.filter((r) => r.json!.protocol === `${NS}.event.status`).length).toBeGreaterThanOrEqual(2);
  });

  it("leaves a zero exit code out, and gives an in-process tool no exec", async () => {
    const [, info] = tool("stream_info", { stream: "ORDERS" });
    const reply = (await call(nc, subject("tool", peer.identity), info)).at(-1)!;
    expect(reply.text).toContain('"output":"Information for Stream ORDERS\\n","exec":{"command":"stream info -- ORDERS"}}');
    const [, echo] = tool("echo", { a: "<b>" });
    const echoed = (await call(nc, subject("tool", peer.identity), echo)).at(-1)!;
    expect(echoed.json).not.toHaveProperty("exec");
    expect(echoed.text).toContain('"output":"{\\"a\\":\\"\\u003cb\\u003e\\"}"');
  });

  it("refuses a call with an unknown property as a harness failure", async () => {
    const [, body] = tool("stream_info", { stream: "ORDERS", bogus: 1 });
    const reply = (await call(nc, subject("tool", peer.identity), body)).at(-1)!;
    expect(reply.json).toMatchObject({ is_error: true, output: 'building command line for "stream info -- ORDERS": unknown property "bogus"' });
    expect(reply.json).not.toHaveProperty("exec");
  });

  it("refuses for capacity with the exact reason, and frees the slot after the running call", async () => {
    const solo = await start(natsUrl, { identity: tag("solo"), concurrency: 1, keepaliveMs: 20, tools: [{ name: "slow", description: "Slow", script: { delayMs: 400 } }] });
    const first = call(nc, subject("tool", solo.identity), clientRequest("tool.request", solo.identity, { name: "slow" }));
    await solo.waitForReceived((r) => r.kind === "tool");
    await expect.poll(() => solo.toolsInFlight()).toBe(1);
    const request = tag("second");
    const set = await call(nc, subject("tool", solo.identity), clientRequest("tool.request", solo.identity, { name: "slow" }, { request }));
    const reason = `tool "slow" on agent "${solo.identity}" did not run: the agent is already running its maximum of 1 concurrent tool calls`;
    expectReplySet(set, request, solo.identity);
    expect(set.map((r) => r.json)).toMatchObject([{ accepted: false, reason }, { is_error: true, output: reason, code: "capacity" }]);
    expect((await first).at(-1)!.json).toMatchObject({ output: "slow ran\n" });
    const third = await call(nc, subject("tool", solo.identity), clientRequest("tool.request", solo.identity, { name: "slow" }));
    expect(third[0]!.json).toMatchObject({ accepted: true });
    const [, busy] = tool("busy");
    expect((await call(nc, subject("tool", peer.identity), busy)).at(-1)!.json).toMatchObject({ code: "capacity" });
  });

  it("refuses an unknown or undescribed tool in band: ack false, then is_error without a code", async () => {
    for (const name of ["nope", "undescribed"]) {
      const [request, body] = tool(name);
      const set = await call(nc, subject("tool", peer.identity), body);
      const reason = `tool "${name}" is not available`;
      expectReplySet(set, request, peer.identity);
      expect(set.map((r) => r.json)).toEqual([expect.objectContaining({ accepted: false, reason }), expect.objectContaining({ is_error: true, output: reason })]);
      expect(set[1]!.json).not.toHaveProperty("code");
    }
  });

  it("answers bad input with a micro 400 and an empty body, before any reply set", async () => {
    const [, toolReq] = tool("stream_info");
    const wrong = await call(nc, subject("discovery", peer.identity), toolReq);
    expect(wrong).toHaveLength(1);
    expect(wrong[0]!.text).toBe("");
    expect(wrong[0]!.microError?.code).toBe("400");
    expect(wrong[0]!.microError?.description).toContain("want");
    expect(wrong[0]!.microError?.description).toBe(`unexpected message protocol: got "${NS}.tool.request", want "${NS}.discovery.request"`);
    const cases: [string, string | Uint8Array, RegExp][] = [
      [subject("tool", peer.identity), "not json", /^invalid request: /],
      [subject("tool", peer.identity), clientRequest("tool.request", peer.identity), /^invalid request: .*name/],
      [subject("tool", peer.identity), new Uint8Array(786_433).fill(32), /^request exceeds 786432 bytes$/],
      [subject("task", peer.identity), `{"protocol":"${NS}.cancel"}`, /^the request is not a valid v1 message: /],
      [subject("task", peer.identity), clientRequest("cancel", peer.identity), /^this path carries requests: got "io\.choria\.fisk-ai\.v1\.cancel"$/],
    ];
    for (const [subject, body, description] of cases) {
      const reader = openInbox(nc);
      await nc.flush();
      nc.publish(subject, body, { reply: reader.inbox });
      const got = [await reader.next(), ...(await reader.quietFor(50))];
      reader.close();
      expect(got, String(description)).toHaveLength(1);
      expect(got[0]!.text).toBe("");
      expect(got[0]!.microError).toEqual({ code: "400", description: expect.stringMatching(description) as unknown });
    }
    const [, flaky] = tool("flaky");
    expect((await call(nc, subject("tool", peer.identity), flaky))[0]!.microError).toEqual({ code: "500", description: "tool failed" });
  });

  it("publishes a foreign terminal message to the inbox before the real reply", async () => {
    const [request, body] = tool("late");
    const got = await call(nc, subject("tool", peer.identity), body, (r) => r.json?.request === request && endsRead(r));
    const foreign = got.filter((r) => r.json?.request !== request);
    expect(foreign).toHaveLength(1);
    expect(foreign[0]!.json).toMatchObject({ protocol: `${NS}.tool.reply` });
    expect(foreign[0]!.final).toBe(true);
    expectFaithful(foreign[0]!.text);
    expectReplySet(got.filter((r) => r.json?.request === request), request, peer.identity);
  });

  it("gives no responders (503) for an identity nobody serves", async () => {
    const ghost = tag("ghost");
    const err = await nc.request(subject("discovery", ghost), clientRequest("discovery.request", ghost), { timeout: 2000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestError);
    expect((err as RequestError).isNoResponders()).toBe(true);
    const raw = await call(nc, subject("tool", ghost), clientRequest("tool.request", ghost, { name: "x" }));
    expect(raw).toEqual([expect.objectContaining({ status: 503, text: "" })]);
  });

  it("logs every message it receives, headers and bytes as sent", async () => {
    const [request, body] = tool("stream_info", { stream: "ORDERS" });
    const reader = openInbox(nc);
    await nc.flush();
    const h = headers();
    h.set("X-Probe", "yes");
    nc.publish(subject("tool", peer.identity), body, { reply: reader.inbox, headers: h });
    await reader.until();
    reader.close();
    const record = await peer.waitForReceived((r) => r.text.includes(request));
    expect(record).toMatchObject({ subject: subject("tool", peer.identity), reply: reader.inbox, text: body, kind: "tool" });
    expect(record.headers["X-Probe"]).toEqual(["yes"]);
  });
});

describe("the fisk-ai test peer as a Gen 1 agent", () => {
  let gen1: FiskPeer;
  beforeAll(async () => {
    gen1 = await start(natsUrl, {
      identity: tag("legacy"),
      generation: "gen1",
      concurrency: 1,
      tools: [
        { name: "stream_info", description: "Shows a stream", behavior: { read_only: true }, script: { exitCode: 1, output: "nats: error: stream not found\n", command: "stream info -- ORDERS" } },
        { name: "slow", description: "Slow", script: { delayMs: 60 } },
      ],
    });
  });
  const legacyCall = (name: string, extra: Record<string, unknown> = {}) => {
    const request = tag("g1");
    return [request, clientRequest("tool.request", gen1.identity, { ...extra, name }, { request })] as const;
  };

  it("answers a tool call with one tool.reply through respond: no ack, no final header, sequence 0", async () => {
    const [request, body] = legacyCall("stream_info");
    const reader = openInbox(nc);
    await nc.flush();
    nc.publish(subject("tool", gen1.identity), body, { reply: reader.inbox });
    const got = [await reader.next(), ...(await reader.quietFor(80))];
    reader.close();
    expect(got).toHaveLength(1);
    expect(got[0]!.final).toBe(false);
    expect(got[0]!.json).toMatchObject({ protocol: `${NS}.tool.reply`, request, sequence: 0, exec: { command: "stream info -- ORDERS", exit_code: 1 } });
    for (const packId of ["fisk-ai/gen1-v0.0.2", "fisk-ai/gen1-v0.0.3"]) expectFaithful(got[0]!.text, packId);
  });

  it("is strict: an unknown field such as traceparent gets a micro 400", async () => {
    const [, body] = legacyCall("stream_info", { traceparent: "00-8a8544970433ab6d582fd0eeecd66413-5c0c4929b744a202-01" });
    const got = await call(nc, subject("tool", gen1.identity), body);
    expect(got).toEqual([expect.objectContaining({ text: "", microError: { code: "400", description: expect.stringMatching(/^invalid request: .*traceparent/) as unknown } })]);
  });

  it("serves a Gen 1 card, refuses unknown tools in band, queues past its concurrency and has no task path", async () => {
    const card = await nc.request(subject("discovery", gen1.identity), clientRequest("discovery.request", gen1.identity), { timeout: 2000 });
    expectFaithful(card.string(), "fisk-ai/gen1-v0.0.3");
    expect(card.string()).not.toContain("behavior");
    const [, unknown] = legacyCall("nope");
    const refused = await call(nc, subject("tool", gen1.identity), unknown);
    expect(refused.map((r) => r.json)).toEqual([expect.objectContaining({ sequence: 0, is_error: true, output: 'tool "nope" is not available' })]);
    const both = await Promise.all([call(nc, subject("tool", gen1.identity), legacyCall("slow")[1]), call(nc, subject("tool", gen1.identity), legacyCall("slow")[1])]);
    expect(both.map((set) => set.map((r) => r.json?.output))).toEqual([["slow ran\n"], ["slow ran\n"]]);
    const task = await call(nc, subject("task", gen1.identity), clientRequest("request.prompt", gen1.identity, { prompt: "hi" }));
    expect(task[0]!.status).toBe(503);
  });
});

describe("the fisk-ai test peer as a micro service", () => {
  it("lists itself on $SRV.INFO with fisk-ai's description, and answers PING and STATS by name", async () => {
    const infos: Record<string, unknown>[] = [];
    for await (const m of await nc.requestMany("$SRV.INFO", "", { strategy: "stall", stall: 100, maxWait: 2000 })) infos.push(m.json());
    const mine = infos.find((i) => i.name === peer.identity);
    expect(Object.keys(mine!)).toEqual(["name", "id", "version", "metadata", "type", "description", "endpoints"]);
    expect(mine).toMatchObject({ id: peer.serviceId, version: "0.0.0", type: "io.nats.micro.v1.info_response", description: "fisk-ai a2a tool server" });
    expect(mine!.endpoints).toEqual(
      ["discovery", "tool", "task"].map((name) => ({ name, subject: `choria.fisk-ai.${name}.${peer.identity}`, queue_group: peer.identity, metadata: null })),
    );
    const ping = await nc.request(`$SRV.PING.${peer.identity}`, "", { timeout: 2000 });
    expect(ping.json()).toEqual({ name: peer.identity, id: peer.serviceId, version: "0.0.0", metadata: {}, type: "io.nats.micro.v1.ping_response" });
    const toolStats = async () =>
      (await nc.request(`$SRV.STATS.${peer.identity}.${peer.serviceId}`, "", { timeout: 2000 })).json<{ endpoints: { name: string; num_requests: number; num_errors: number }[] }>().endpoints.find((e) => e.name === "tool")!;
    // Counted from here: the tests before this one, whichever ran, called the tool endpoint too.
    const before = await toolStats();
    await call(nc, subject("tool", peer.identity), tool("stream_info")[1]);
    await call(nc, subject("tool", peer.identity), "not json");
    const after = await toolStats();
    expect([after.num_requests - before.num_requests, after.num_errors - before.num_errors]).toEqual([2, 1]);
  });
});

describe("the fisk-ai test peer's task path", () => {
  const SCRIPTS: Record<string, TaskScript> = {
    events: {
      ack: { max_tokens: 200_000 },
      steps: [
        { kind: "event", event: "text", block: { text: "Looking at the streams." } },
        { kind: "event", event: "tool_call", block: { id: "toolu_01", name: "stream_ls", input: { json: true } } },
        { kind: "event", event: "tool_result", block: { call_id: "toolu_01", output: '{"command":"stream ls --json","exit_code":0}' } },
        { kind: "event", event: "status", block: { iteration: 1, usage: { input_tokens: 6120, output_tokens: 88 } } },
        { kind: "event", event: "citation", block: { source: "rfc1", page: 12 } },
        { kind: "elicit", question: { kind: "select", tool_use_id: "toolu_03Cd", question: "Which cluster?", options: ["east", "west"] }, windowMs: 5000 },
        { kind: "event", event: "text", block: { text: "Using west." } },
        { kind: "until-cancel" },
      ],
    },
    approve: {
      steps: [
        { kind: "event", event: "text", block: { text: "not streamed" } },
        { kind: "elicit", question: { kind: "approve", tool_use_id: "toolu_01Xy", command: "stream rm", display: "stream rm --force -- ORDERS", tag: "ai:confirm" }, windowMs: 60 },
      ],
    },
    confirm: { steps: [{ kind: "elicit", question: { kind: "confirm", tool_use_id: "toolu_02", question: "Sure?" }, windowMs: 60 }] },
    input: { steps: [{ kind: "elicit", question: { kind: "input", question: "Name?", default: "x" }, windowMs: 150 }], end: { kind: "result", text: "done" } },
    hold: { steps: [{ kind: "until-cancel" }] },
  };
  const script = (req: Record<string, unknown>) => SCRIPTS[String(req.prompt)] ?? {};
  let worker: FiskPeer;
  beforeAll(async () => {
    worker = await start(natsUrl, { identity: tag("nats-worker"), taskWorkers: 4, task: script });
  });

  const open = async (agent: FiskPeer, prompt: string, fields: Record<string, unknown> = {}) => {
    const request = tag("task");
    const reader = openInbox(nc);
    await nc.flush();
    nc.publish(subject("task", agent.identity), clientRequest("request.prompt", agent.identity, { prompt, ...fields }, { request }), { reply: reader.inbox });
    return { request, reader };
  };
  const ask = async (subject: string, suffix: string, identity: string, request: string, fields: Record<string, unknown>) =>
    received(await nc.request(subject, clientRequest(suffix, identity, fields, { request }), { timeout: 2000 }));

  it("streams ack, events (unknown kinds too), a question answered on the elicit subject, and ends suspended on cancel", async () => {
    const { request, reader } = await open(worker, "events");
    const ack = await reader.next();
    expect(ack.json).toMatchObject({ protocol: `${NS}.ack`, accepted: true, max_tokens: 200_000 });
    expect(ack.json!.conversation_token).toMatch(KSUID);
    const events = [await reader.next(), await reader.next(), await reader.next(), await reader.next(), await reader.next()];
    expect(events.map((e) => e.json!.protocol)).toEqual(["text", "tool_call", "tool_result", "status", "citation"].map((k) => `${NS}.event.${k}`));
    expect(events[4]!.text).toContain('"block":{"source":"rfc1","page":12}}');
    const question = await reader.next();
    expect(question.json).toMatchObject({ protocol: `${NS}.elicit.request.select`, tool_use_id: "toolu_03Cd", question: "Which cluster?", options: ["east", "west"], wait_ms: 5000 });
    const qid = String(question.json!.question_id);
    const elicit = subject("elicit", worker.identity, request);
    const acks = [
      await ask(elicit, "elicit.waiting", worker.identity, request, { question_id: qid }),
      await ask(elicit, "elicit.reply.select", worker.identity, request, { question_id: qid, index: 1 }),
    ];
    for (const a of acks) expect(a.json).toMatchObject({ protocol: `${NS}.ack`, request, sequence: 0, accepted: true, sender: { name: worker.identity } });
    const again = await ask(elicit, "elicit.reply.select", worker.identity, request, { question_id: qid, index: 0 });
    expect(again).toMatchObject({ text: "", microError: { code: "404", description: `this run is not waiting on question "${qid}"` } });
    const after = await reader.next();
    expect(after.json!.block).toEqual({ text: "Using west." });
    const cancelAck = await ask(subject("cancel", worker.identity, request), "cancel", worker.identity, request, { reason: "changed my mind" });
    expect(cancelAck.json).toMatchObject({ protocol: `${NS}.ack`, request, sequence: 0, accepted: true });
    const end = await reader.next();
    reader.close();
    expect(end.json).toMatchObject({ protocol: `${NS}.error`, stop_reason: "suspended", code: "suspended" });
    expectReplySet([ack, ...events, question, after, end], request, worker.identity);
    for (const r of [...acks, cancelAck]) expectFaithful(r.text);
    // The watches end with the task: nobody answers its cancel or elicit subject any more.
    const gone = await nc.request(subject("cancel", worker.identity, request), clientRequest("cancel", worker.identity, {}, { request }), { timeout: 2000 }).catch((e: unknown) => e);
    expect((gone as RequestError).isNoResponders()).toBe(true);
    expect(worker.received.filter((r) => r.subject === elicit).map((r) => JSON.parse(r.text).protocol)).toEqual(
      ["elicit.waiting", "elicit.reply.select", "elicit.reply.select"].map((k) => `${NS}.${k}`),
    );
    expect(worker.runningTasks()).toEqual([]);
  });

  it("holds the cancel subject only on the instance running the task", async () => {
    const identity = tag("twin");
    const twins = [await start(natsUrl, { identity, task: SCRIPTS.hold }), await start(natsUrl, { identity, task: SCRIPTS.hold })];
    const { request, reader } = await open(twins[0]!, "hold");
    expect((await reader.next()).json).toMatchObject({ accepted: true });
    const owner = twins.find((t) => t.runningTasks().includes(request))!;
    const sibling = twins.find((t) => t !== owner)!;
    expect(sibling.runningTasks()).toEqual([]);
    await ask(subject("cancel", identity, request), "cancel", identity, request, {});
    expect((await reader.next()).json).toMatchObject({ code: "suspended" });
    reader.close();
    expect(owner.received.filter((r) => r.kind === "cancel")).toHaveLength(1);
    expect(sibling.received.filter((r) => r.kind === "cancel" || r.kind === "task")).toHaveLength(0);
  });

  it("ends an unanswered approval suspended and an unanswered confirm deferred; stream:false still asks", async () => {
    const approve = await open(worker, "approve", { stream: false });
    const approveSet = await approve.reader.until();
    expect(approveSet.map((r) => r.json!.protocol)).toEqual([`${NS}.ack`, `${NS}.elicit.request.approve`, `${NS}.error`]);
    expect(approveSet[1]!.json).toMatchObject({ command: "stream rm", display: "stream rm --force -- ORDERS", tag: "ai:confirm", wait_ms: 60 });
    expect(approveSet[2]!.json).toMatchObject({ code: "suspended" });
    const confirm = await open(worker, "confirm");
    const confirmSet = await confirm.reader.until();
    expect(confirmSet[2]!.json).toMatchObject({ code: "deferred", error: expect.stringContaining("toolu_02") as unknown });
    expectReplySet(approveSet, approve.request, worker.identity);
    expectReplySet(confirmSet, confirm.request, worker.identity);
  });

  it("keeps a question open past its window while waitings arrive, then takes the answer", async () => {
    const token = "3A819bvTpf9dqcUgxM9ZZ810pkf";
    const { request, reader } = await open(worker, "input", { conversation_token: token });
    expect((await reader.next()).json).toMatchObject({ accepted: true, conversation_token: token });
    const question = await reader.next();
    expect(question.json).toMatchObject({ question: "Name?", default: "x", wait_ms: 150 });
    const asked = performance.now();
    const args = [subject("elicit", worker.identity, request), "elicit.waiting", worker.identity, request, { question_id: question.json!.question_id }] as const;
    for (let i = 0; i < 8; i++) {
      expect((await ask(...args)).json).toMatchObject({ accepted: true });
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    expect(performance.now() - asked).toBeGreaterThan(150);
    expect((await ask(args[0], "elicit.reply.input", args[2], request, { ...args[4], value: "" })).json).toMatchObject({ accepted: true });
    const end = await reader.next();
    reader.close();
    expect(end.json).toMatchObject({ protocol: `${NS}.result`, stop_reason: "end_turn", text: "done" });
    expect(end.final).toBe(true);
  });

  it("refuses a duplicate request id and a turn past its workers: ack false, then a final error with a code", async () => {
    const single = await start(natsUrl, { identity: tag("busy-worker"), task: SCRIPTS.hold });
    const held = await open(single, "hold");
    expect((await held.reader.next()).json).toMatchObject({ accepted: true });
    const dup = await call(nc, subject("task", single.identity), clientRequest("request.prompt", single.identity, { prompt: "hold" }, { request: held.request }));
    expect(dup.map((r) => r.json)).toMatchObject([{ accepted: false, reason: `request "${held.request}" is already in flight here` }, { code: "duplicate_request" }]);
    const over = await call(nc, subject("task", single.identity), clientRequest("request.prompt", single.identity, { prompt: "hold" }));
    expect(over.map((r) => r.json)).toMatchObject([{ accepted: false, reason: "this worker is running its maximum of 1 prompts" }, { code: "capacity" }]);
    expect(over[1]!.final).toBe(true);
    await ask(subject("cancel", single.identity, held.request), "cancel", single.identity, held.request, {});
    expect((await held.reader.next()).json).toMatchObject({ code: "suspended" });
    held.reader.close();
  });
});

describe("everything the test peers sent", () => {
  it("is a valid fisk-ai message, a micro response, or a micro error with an empty body; no peer handler failed", () => {
    let checked = 0;
    for (const p of peers) {
      expect(p.failures).toEqual([]);
      for (const r of p.sent) {
        if (r.kind === "fisk-ai") expectFaithful(r.text, p.generation === "gen1" ? "fisk-ai/gen1-v0.0.3" : undefined);
        else if (r.kind === "micro") expect(JSON.parse(r.text).type).toMatch(/^io\.nats\.micro\.v1\.(ping|info|stats)_response$/);
        else expect([r.text, Object.keys(r.headers)]).toEqual(["", ["Nats-Service-Error-Code", "Nats-Service-Error"]]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(80);
  });
});
