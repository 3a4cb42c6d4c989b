/**
 * The fisk-ai surface's traffic, recorded by the backend and read through
 * GET /api/serve/nats/frames: a FiskClient call's request and replies (subject, headers, body
 * verbatim), conversation tokens redacted, paging, and hostile queries.
 */
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEFAULT_SENDER, FiskClient } from "../../src/core/fisk/client/index.ts";
import { systemClock, systemScheduler } from "../../src/core/env/index.ts";
import { tcpConnector } from "../../src/core/nats/node/tcp-connector.ts";
import type { NatsPort } from "../../src/core/nats/port.ts";
import { DEMO_TOOLKIT } from "../../src/core/serving/demo-toolkit.ts";
import { toolkitToFile } from "../../src/core/serving/toolkit/toolkit-text.ts";
import type { FramePage, RecordedFrame } from "../../server/serving/frame-ring.ts";
import { clientRequest, openInbox } from "../helpers/fisk-peer/index.ts";
import { errorOf, send, startTestBackend, type TestBackend } from "../helpers/http-client.ts";

const natsUrl = inject("natsUrl");
const identity = `frames-${crypto.randomUUID().slice(0, 8)}`;
const toolSubject = `choria.fisk-ai.tool.${identity}`;
let t: TestBackend;
let port: NatsPort;
let nc: NatsConnection;
let client: FiskClient;

beforeAll(async () => {
  t = await startTestBackend({ nats: { mode: "external", url: natsUrl } });
  port = await tcpConnector().connect({ servers: natsUrl, name: "serve-nats-frames-client" });
  nc = await connect({ servers: natsUrl, name: "serve-nats-frames-wire" });
  client = new FiskClient({ port, clock: systemClock(performance, Date), scheduler: systemScheduler(), random: (b) => crypto.getRandomValues(b), sender: DEFAULT_SENDER });
});
afterAll(async () => {
  await t.close();
  await port.close();
  await nc.close();
});

const api = (method: string, path: string, body?: unknown, auth = true) =>
  send({
    port: t.port,
    method,
    path,
    headers: { ...(auth ? t.auth : {}), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

async function frames(query = ""): Promise<FramePage> {
  const res = await api("GET", `/api/serve/nats/frames${query}`);
  expect(res.status, res.text).toBe(200);
  return res.json<FramePage>();
}

/** Every frame recorded so far. */
async function allFrames(): Promise<RecordedFrame[]> {
  const out: RecordedFrame[] = [];
  for (let after = 0; ; ) {
    const page = await frames(`?after=${after}`);
    out.push(...page.frames);
    if (page.frames.length === 0) return out;
    after = page.next;
  }
}

// One surface's life, in order: started by the first test, stopped by the last.
describe("the NATS surface's recorded traffic", { shuffle: false }, () => {
  it("records a FiskClient call: the request in, each reply out with its headers, bodies verbatim", async () => {
    expect(await frames()).toEqual({ frames: [], next: 0, dropped: 0 });
    const started = await api("POST", "/api/serve/nats/start", { toolkit: { ...toolkitToFile(DEMO_TOOLKIT), name: identity } });
    expect(started.status, started.text).toBe(200);
    const called = await client.callTool(identity, "echo", { message: "recorded" });
    expect(called.outcome).toEqual({ kind: "output", output: "recorded" });

    await expect.poll(async () => (await allFrames()).some((f) => f.direction === "out" && f.headers?.["Fisk-AI-Stream-Final"] !== undefined)).toBe(true);
    const all = await allFrames();
    const request = all.find((f) => f.direction === "in" && f.subject === toolSubject);
    expect(request).toMatchObject({ direction: "in", subject: toolSubject, reply: expect.stringMatching(/^_INBOX\./) });
    expect(JSON.parse(request!.text)).toMatchObject({ protocol: "io.choria.fisk-ai.v1.tool.request", name: "echo", input: { message: "recorded" } });
    expect(request!.seq).toBeGreaterThan(0);
    expect(Math.abs(request!.at - Date.now())).toBeLessThan(60_000);
    const replies = all.filter((f) => f.direction === "out" && f.subject === request!.reply);
    expect(replies.length).toBeGreaterThanOrEqual(2);
    expect(replies.map((f) => JSON.parse(f.text) as { protocol: string }).map((m) => m.protocol)).toContain("io.choria.fisk-ai.v1.tool.reply");
    const last = replies.at(-1)!;
    expect(last.headers?.["Fisk-AI-Stream-Final"]).toBeDefined();
    expect(JSON.parse(last.text)).toMatchObject({ protocol: "io.choria.fisk-ai.v1.tool.reply", output: "recorded" });
    // Sequence numbers only grow.
    expect(all.map((f) => f.seq)).toEqual([...all.map((f) => f.seq)].sort((a, b) => a - b));
  });

  it("never records a conversation_token, and records a bad request and its micro error", async () => {
    const secret = `tok-${crypto.randomUUID()}`;
    const before = (await frames()).next;
    const reader = openInbox(nc);
    try {
      nc.publish(toolSubject, clientRequest("tool.request", identity, { name: "echo", input: { message: "x" }, conversation_token: secret }), { reply: reader.inbox });
      await reader.next();
      nc.publish(toolSubject, "not json", { reply: reader.inbox });
      await reader.next();
    } finally {
      reader.close();
    }
    await expect.poll(async () => (await frames(`?after=${before}`)).frames.filter((f) => f.direction === "in").length).toBeGreaterThanOrEqual(2);
    const fresh = (await allFrames()).filter((f) => f.seq > before);
    expect(JSON.stringify(fresh)).not.toContain(secret);
    expect(fresh.find((f) => f.text.includes('"conversation_token":"•••"'))).toMatchObject({ direction: "in", subject: toolSubject });
    expect(fresh.find((f) => f.text === "not json")).toMatchObject({ direction: "in", subject: toolSubject });
    await expect.poll(async () => (await allFrames()).some((f) => f.seq > before && f.headers?.["Nats-Service-Error-Code"]?.[0] === "400")).toBe(true);
  });

  it("pages with after and limit, keeps the frames after a stop, and refuses hostile queries", async () => {
    const total = (await allFrames()).length;
    const first = await frames("?limit=1");
    expect(first.frames).toHaveLength(1);
    expect(first.next).toBe(first.frames[0]!.seq);
    expect((await frames(`?after=${first.next}&limit=2`)).frames.map((f) => f.seq)).toEqual([first.next + 1, first.next + 2]);
    expect((await api("POST", "/api/serve/nats/stop")).status).toBe(200);
    expect((await allFrames()).length).toBeGreaterThanOrEqual(total);
    expect((await frames("?after=99999999")).frames).toEqual([]);

    for (const query of ["?after=-1", "?after=abc", "?limit=0x10", "?limit=501", "?after=1e3", `?after=${"9".repeat(40)}`, "?limit=%20"]) {
      const res = await api("GET", `/api/serve/nats/frames${query}`);
      expect(res.status, query).toBe(400);
      expect(errorOf(res).code).toBe("bad_query");
    }
    expect((await api("GET", "/api/serve/nats/frames", undefined, false)).status).toBe(401);
    expect((await api("POST", "/api/serve/nats/frames", {})).status).toBe(405);
  });
});
