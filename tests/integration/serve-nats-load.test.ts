/**
 * Load on the served fisk-ai agent over a real nats-server: 500 tool calls at once against an
 * agent limited to 4. An instrumented executor proves exactly 4 ever run together; every call gets
 * exactly one complete reply set, either its own result or a capacity refusal; none is lost,
 * answered twice or given someone else's answer; and the slots are all free afterwards.
 */
import { connect, type Msg, type NatsConnection } from "@nats-io/transport-node";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { tcpConnector } from "../../src/core/nats/node/tcp-connector.ts";
import type { NatsPort } from "../../src/core/nats/port.ts";
import { type FiskServer, type ToolExecutor } from "../../src/core/serving/fisk/index.ts";
import { executeTool } from "../../src/core/serving/tool-executor.ts";
import { clientRequest, received, type Received } from "../helpers/fisk-peer/index.ts";
import { startDemoAgent } from "../helpers/demo-agent.ts";

const natsUrl = inject("natsUrl");
const NS = "io.choria.fisk-ai.v1";
const CALLS = 500;
const LIMIT = 4;
const identity = `load-${crypto.randomUUID().slice(0, 8)}`;
let port: NatsPort;
let server: FiskServer;
let nc: NatsConnection;
let active = 0;
let most = 0;
let ran = 0;

/** Counts the tools running at once; each run lasts long enough for the calls to pile up. */
const counting: ToolExecutor = async (tool, input, ctx) => {
  active++;
  ran++;
  most = Math.max(most, active);
  try {
    await new Promise((resolve) => setTimeout(resolve, 15));
    return await executeTool(tool, input, ctx);
  } finally {
    active--;
  }
};

beforeAll(async () => {
  port = await tcpConnector().connect({ servers: natsUrl, name: "serve-nats-load" });
  server = await startDemoAgent(port, identity, { concurrency: LIMIT, execute: counting });
  nc = await connect({ servers: natsUrl, name: "serve-nats-load-client" });
});

afterAll(async () => {
  await server.stop();
  await port.close();
  await nc.close();
});

it(`${CALLS} concurrent calls with concurrency ${LIMIT}: exactly ${LIMIT} run at once, each call answered once`, { timeout: 60_000 }, async () => {
  const prefix = `_INBOX.load${crypto.randomUUID().replaceAll("-", "")}`;
  const sets: Received[][] = Array.from({ length: CALLS }, () => []);
  let finals = 0;
  const sub = nc.subscribe(`${prefix}.>`, {
    callback: (_err, msg: Msg) => {
      const r = received(msg);
      sets[Number(msg.subject.slice(prefix.length + 1))]!.push(r);
      if (r.final) finals++;
    },
  });
  await nc.flush();
  const requests = Array.from({ length: CALLS }, (_, i) => `load-${i}`);
  for (const [i, request] of requests.entries()) {
    nc.publish(`choria.fisk-ai.tool.${identity}`, clientRequest("tool.request", identity, { name: "echo", input: { message: `call ${i}` } }, { request }), { reply: `${prefix}.${i}` });
  }
  const deadline = Date.now() + 30_000;
  while (finals < CALLS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  // A second answer to any call would arrive by now.
  await new Promise((r) => setTimeout(r, 300));
  sub.unsubscribe();

  let results = 0;
  let refusals = 0;
  sets.forEach((set, i) => {
    const label = `call ${i}: ${JSON.stringify(set.map((r) => r.text))}`;
    expect(set.filter((r) => r.final), label).toHaveLength(1);
    expect(set.at(-1)!.final, label).toBe(true);
    set.forEach((r, n) => expect(r.json, label).toMatchObject({ sequence: n + 1, request: requests[i] }));
    const [ack, reply] = set;
    expect(set, label).toHaveLength(2);
    if (ack!.json?.accepted === true) {
      results++;
      expect(reply!.json, label).toMatchObject({ protocol: `${NS}.tool.reply`, output: `call ${i}` });
      expect(reply!.json, label).not.toHaveProperty("is_error");
    } else {
      refusals++;
      expect(ack!.json, label).toMatchObject({ protocol: `${NS}.ack`, accepted: false, reason: expect.stringContaining(`maximum of ${LIMIT} concurrent tool calls`) });
      expect(reply!.json, label).toMatchObject({ is_error: true, code: "capacity" });
    }
  });
  expect(results + refusals).toBe(CALLS);
  expect(most).toBe(LIMIT);
  expect(ran).toBe(results);
  expect(results).toBeGreaterThanOrEqual(LIMIT);
  expect(refusals).toBeGreaterThan(0);
  expect(server.status()).toMatchObject({ active: 0, pending: 0 });
  expect(server.status().endpoints.tool.requests).toBe(CALLS);
});
