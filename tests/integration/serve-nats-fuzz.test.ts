/**
 * Fuzzing the served fisk-ai agent over a real nats-server: thousands of malformed bodies (not
 * JSON, truncated, wrong types, oversize, invalid UTF-8, deep nesting, unknown protocol ids) on
 * its tool and discovery subjects, then on its task subject and on a running task's own cancel
 * and elicit subjects (the task runs on to its result unharmed). Every one is answered exactly once with a clear error (a micro
 * 400 with an empty body and fisk-ai's description), the agent keeps serving, nothing is left
 * pending and the heap does not grow with the traffic.
 */
import { connect, type Msg, type NatsConnection } from "@nats-io/transport-node";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { sinkLogger } from "../../src/core/env/index.ts";
import { tcpConnector } from "../../src/core/nats/node/tcp-connector.ts";
import type { NatsPort } from "../../src/core/nats/port.ts";
import type { FiskServer } from "../../src/core/serving/fisk/index.ts";
import { call, clientRequest, openInbox, received, type Received } from "../helpers/fisk-peer/index.ts";
import { startDemoAgent } from "../helpers/demo-agent.ts";

const natsUrl = inject("natsUrl");
const NS = "io.choria.fisk-ai.v1";
const identity = `fuzz-${crypto.randomUUID().slice(0, 8)}`;
const warnings: string[] = [];
let port: NatsPort;
let server: FiskServer;
let nc: NatsConnection;

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

beforeAll(async () => {
  port = await tcpConnector().connect({ servers: natsUrl, name: "serve-nats-fuzz" });
  server = await startDemoAgent(port, identity, {
    concurrency: 8,
    logger: sinkLogger((level, message) => level !== "debug" && level !== "info" && warnings.push(message)),
  });
  nc = await connect({ servers: natsUrl, name: "serve-nats-fuzz-client", maxPingOut: 10 });
});

afterAll(async () => {
  await server.stop();
  await port.close();
  await nc.close();
});

/** A small deterministic PRNG, so a failure names a reproducible case. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

const enc = new TextEncoder();
const concat = (...parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/** What a subject takes: a valid body, and per field the values a fisk-ai peer refuses. */
interface BodySpec {
  readonly valid: () => Record<string, unknown>;
  readonly wrong: Record<string, readonly unknown[]>;
  /** Fields a valid body may go without. */
  readonly optional: readonly string[];
  /** Protocol ids the subject refuses (never one it takes). */
  readonly protocols: readonly string[];
  /** A field deep nesting replaces (a value of the wrong type there is refused at any depth). */
  readonly nestInto: string;
}

// Per header field, values a fisk-ai peer refuses (schema, identifier rules, or Go's decoder).
const HEADER_WRONG: Record<string, readonly unknown[]> = {
  protocol: [null, 7, "", [], {}],
  id: [null, 7, "", "a.b", "with space", [], {}],
  request: [null, 7, "", "a.b", "x>", "x".repeat(65), []],
  conversation: [null, 7, "", "a*b", {}],
  sequence: [null, -1, 1.5, "", "7", [], true],
  time: [null, 7, "", "yesterday", "2026-13-01T00:00:00Z", "2026-01-01 00:00:00", []],
  sender: [null, 7, "", [], {}, { name: "" }, { name: 3 }, { name: "a.b" }],
};

const TOOL_SPEC: BodySpec = {
  valid: () => JSON.parse(clientRequest("tool.request", identity, { name: "echo", input: { message: "m" } })) as Record<string, unknown>,
  wrong: { ...HEADER_WRONG, name: [null, 7, "", [], {}, true], input: [7, "", "text", [], [1], true] },
  optional: ["input"],
  nestInto: "input",
  protocols: [`${NS}.bogus`, "io.choria.fisk-ai.v2.tool.request", `${NS}.event.text.evil`, `${NS}.event.`, `${NS}.request`, "", `${NS}.tool.reply`, `${NS}.ack`, "TOOL.REQUEST"],
};

const TASK_SPEC: BodySpec = {
  valid: () => JSON.parse(clientRequest("request.prompt", identity, { prompt: "hi", tool_hints: ["echo"], replay: 3, stream: true, budget: { max_tokens: 10 } })) as Record<string, unknown>,
  wrong: {
    ...HEADER_WRONG,
    prompt: [null, 7, "", [], {}, true],
    tool_hints: [7, "echo", [1], {}],
    replay: [0, -1, 1.5, "3", []],
    stream: ["yes", 1, []],
    budget: [7, "x", []],
    conversation_token: [7, "", "a.b", "x".repeat(129), []],
    answer: [7, "x", {}, { tool_use_id: "t", kind: "approve", answer: "value", value: "y" }],
  },
  optional: ["tool_hints", "replay", "stream", "budget"],
  nestInto: "prompt",
  protocols: [`${NS}.bogus`, `${NS}.request`, `${NS}.request.ask`, `${NS}.cancel`, `${NS}.tool.request`, `${NS}.result`, `${NS}.elicit.reply.approve`, "", "REQUEST.PROMPT"],
};

function malformed(count: number, rand: () => number, spec: BodySpec = TOOL_SPEC): { body: Uint8Array; kind: string }[] {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const { valid, wrong, protocols } = spec;
  const headerFields = Object.keys(wrong);
  const badUtf8 = [[0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xe2, 0x82]].map((b) => new Uint8Array(b));
  const nest = (depth: number, open: string, close: string, inner = "1") => open.repeat(depth) + inner + close.repeat(depth);
  const makers: Record<string, () => Uint8Array> = {
    "not-json": () => enc.encode(pick(["", "not json", "{", "}", "nul", "'single'", "{a:1}", "[1,2", "\u0000", String(rand())]) + "x".repeat(Math.floor(rand() * 50))),
    random: () => crypto.getRandomValues(new Uint8Array(1 + Math.floor(rand() * 300))),
    truncated: () => {
      const text = JSON.stringify(valid());
      return enc.encode(text.slice(0, Math.floor(rand() * (text.length - 1))));
    },
    "wrong-type": () => {
      const m = valid();
      const field = pick(headerFields);
      m[field] = pick(wrong[field]!);
      return enc.encode(JSON.stringify(m));
    },
    "missing-field": () => {
      const m = valid();
      delete m[pick(headerFields.filter((f) => !spec.optional.includes(f) && m[f] !== undefined))];
      return enc.encode(JSON.stringify(m));
    },
    "not-object": () => enc.encode(JSON.stringify(pick([[valid()], "text", 42, null, true]))),
    "unknown-protocol": () => enc.encode(JSON.stringify({ ...valid(), protocol: pick(protocols) })),
    "invalid-utf8": () => {
      const text = enc.encode(JSON.stringify(valid()));
      const at = Math.floor(rand() * text.length);
      return concat(text.subarray(0, at), pick(badUtf8), text.subarray(at));
    },
    "deep-nesting": () => {
      const depth = pick([64, 1500, 9000, 12_000, 40_000]);
      const m = valid();
      return enc.encode(pick([nest(depth, "[", "]"), `{"protocol":${JSON.stringify(m.protocol)},${JSON.stringify(spec.nestInto)}:${nest(depth, '{"a":', "}")}}`, JSON.stringify({ ...m, [spec.nestInto]: null }).replace("null", nest(depth, "[", "]"))]));
    },
  };
  const kinds = Object.keys(makers);
  const out = Array.from({ length: count }, (_, i) => {
    const kind = kinds[i % kinds.length]!;
    return { body: makers[kind]!(), kind };
  });
  // A few bodies over the 786,432-byte cap (NATS itself carries up to 1 MiB).
  for (const size of [786_433, 800_000, 1_000_000]) out.push({ body: enc.encode(JSON.stringify({ ...valid(), padding: "x".repeat(size) })), kind: "oversize" });
  return out;
}

interface Outcome {
  readonly messages: Received[];
  readonly done: boolean;
}

/** Sends every body with its own reply subject under one wildcard inbox; reads until each is answered. */
async function fire(subject: string, cases: readonly { body: Uint8Array }[], inFlight = 64): Promise<Outcome[]> {
  const prefix = `_INBOX.fuzz${crypto.randomUUID().replaceAll("-", "")}`;
  const outcomes: { messages: Received[]; done: boolean }[] = cases.map(() => ({ messages: [], done: false }));
  let open = 0;
  let wake: (() => void) | undefined;
  const sub = nc.subscribe(`${prefix}.>`, {
    callback: (_err, msg: Msg) => {
      const i = Number(msg.subject.slice(prefix.length + 1));
      const o = outcomes[i]!;
      const r = received(msg);
      o.messages.push(r);
      if (!o.done && (r.microError !== undefined || r.final || r.status !== undefined)) {
        o.done = true;
        open--;
        wake?.();
      }
    },
  });
  await nc.flush();
  for (const [i, c] of cases.entries()) {
    while (open >= inFlight) await new Promise<void>((resolve) => (wake = resolve));
    open++;
    nc.publish(subject, c.body, { reply: `${prefix}.${i}` });
  }
  const deadline = Date.now() + 20_000;
  while (open > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  // Anything answered twice would arrive by now.
  await new Promise((r) => setTimeout(r, 200));
  sub.unsubscribe();
  return outcomes;
}

/** Exactly one answer: a micro 400 with an empty body and a description a person can act on. */
function expectClearError(o: Outcome, label: string): void {
  expect(o.done, `${label}: no answer`).toBe(true);
  expect(o.messages, `${label}: ${JSON.stringify(o.messages.map((m) => m.text.slice(0, 200)))}`).toHaveLength(1);
  const [only] = o.messages;
  expect(only!.microError?.code, label).toBe("400");
  expect(only!.text, label).toBe("");
  expect(only!.microError!.description, label).toMatch(/^(invalid request: .{5,}|request exceeds 786432 bytes|unexpected message protocol: got .+, want .+)$/s);
}

it("answers thousands of malformed bodies with a clear error each, stays up and keeps its memory bounded", { timeout: 120_000 }, async () => {
  const rand = prng(20_251_201);
  const round = async (n: number) => {
    const cases = malformed(n, rand);
    const onTool = await fire(`choria.fisk-ai.tool.${identity}`, cases);
    onTool.forEach((o, i) => expectClearError(o, `tool #${i} (${cases[i]!.kind})`));
    const sample = cases.filter((_, i) => i % 5 === 0);
    const onDiscovery = await fire(`choria.fisk-ai.discovery.${identity}`, sample);
    onDiscovery.forEach((o, i) => expectClearError(o, `discovery #${i} (${sample[i]!.kind})`));
    return cases.length + sample.length;
  };
  await round(300); // warm-up: schema compilation, JIT, connection buffers
  gc();
  const before = process.memoryUsage().heapUsed;
  const sent = (await round(2500)) + (await round(2500));
  gc();
  const grown = process.memoryUsage().heapUsed - before;
  expect(sent).toBeGreaterThan(5000);
  expect(grown, `heap grew by ${(grown / 1e6).toFixed(1)} MB`).toBeLessThan(48 * 1024 * 1024);

  // Still serving, nothing left behind, and no handler failed.
  const [ack, reply] = await call(nc, `choria.fisk-ai.tool.${identity}`, clientRequest("tool.request", identity, { name: "echo", input: { message: "still here" } }));
  expect(ack!.json).toMatchObject({ accepted: true });
  expect(reply!.json).toMatchObject({ output: "still here" });
  expect(server.status()).toMatchObject({ active: 0, pending: 0 });
  expect(server.status().endpoints.tool.errors).toBeGreaterThan(4000);
  expect(warnings).toEqual([]);
});

it("answers malformed task requests, cancels and answers with a clear error each, and the task they aimed at runs on unharmed", { timeout: 120_000 }, async () => {
  const rand = prng(20_260_101);
  const cases = malformed(1500, rand, TASK_SPEC);
  const onTask = await fire(`choria.fisk-ai.task.${identity}`, cases);
  onTask.forEach((o, i) => expectClearError(o, `task #${i} (${cases[i]!.kind})`));
  expect(server.status().tasks).toMatchObject({ inFlight: 0 });

  // A task holding a question: hostile bodies at its own cancel and elicit subjects change nothing.
  const request = "fuzz-task-1";
  const reader = openInbox(nc);
  try {
    await nc.flush();
    nc.publish(`choria.fisk-ai.task.${identity}`, clientRequest("request.prompt", identity, { prompt: 'run confirm {"action":"keep"}' }, { request }), { reply: reader.inbox });
    const question = (await reader.until((r) => r.json?.protocol === `${NS}.elicit.request.approve`)).at(-1)!.json!;
    const hostile = malformed(400, rand, {
      valid: () => JSON.parse(clientRequest("cancel", identity, { reason: "x" }, { request })) as Record<string, unknown>,
      wrong: { ...HEADER_WRONG, reason: [7, [], {}, true] },
      optional: ["reason"],
      nestInto: "reason",
      protocols: [`${NS}.bogus`, `${NS}.request.prompt`, `${NS}.ack`, `${NS}.elicit.request.approve`, `${NS}.cancel.x`, "", "CANCEL"],
    });
    const hostileAnswers = malformed(400, rand, {
      valid: () => JSON.parse(clientRequest("elicit.reply.approve", identity, { question_id: question.question_id, choice: "once" }, { request })) as Record<string, unknown>,
      wrong: { ...HEADER_WRONG, question_id: [7, "", [], null], choice: ["maybe", 7, null, "", []] },
      optional: [],
      nestInto: "choice",
      protocols: [`${NS}.bogus`, `${NS}.elicit.reply`, `${NS}.elicit.reply.approve.x`, `${NS}.elicit.request.approve`, `${NS}.cancel`, "", "ELICIT.WAITING"],
    });
    for (const [subject, label, bodies] of [
      [`choria.fisk-ai.cancel.${identity}.${request}`, "cancel", hostile],
      [`choria.fisk-ai.elicit.${identity}.${request}`, "elicit", hostileAnswers],
    ] as const) {
      const outcomes = await fire(subject, bodies);
      outcomes.forEach((o, i) => expectClearError(o, `${label} #${i} (${bodies[i]!.kind})`));
    }
    expect(await reader.quietFor(100)).toEqual([]);
    expect(server.status().tasks).toMatchObject({ inFlight: 1 });
    const answer = await nc.request(`choria.fisk-ai.elicit.${identity}.${request}`, clientRequest("elicit.reply.approve", identity, { question_id: question.question_id, choice: "once" }, { request }), { timeout: 2000 });
    expect(received(answer).json).toMatchObject({ protocol: `${NS}.ack`, accepted: true });
    const rest = await reader.until();
    expect(rest.at(-1)!.json).toMatchObject({ protocol: `${NS}.result`, text: "done: keep" });
  } finally {
    reader.close();
  }
  expect(server.status().tasks).toMatchObject({ inFlight: 0 });
  expect(warnings).toEqual([]);
});
