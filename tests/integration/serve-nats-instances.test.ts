/**
 * One identity served by three real `patchbay serve --nats` processes, each on its own node of a
 * real three-node nats-server cluster, called by Patchbay's FiskClient from a fourth connection
 * on the first node:
 *
 * - "three instances share the load…"          every instance answers $SRV.STATS with its load; calls spread over all three
 * - "discovery and tasks work whichever…"      each turn of one conversation lands anywhere; a read replays them all
 * - "a task with a question, answered, then cancelled"  approval over elicit, the cancel held and acked by the running instance only
 */
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { get } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemClock, systemScheduler } from "../../src/core/env/index.ts";
import { DEFAULT_SENDER, FiskClient, type InstanceLoad, type TaskEvent } from "../../src/core/fisk/client/index.ts";
import { tcpConnector } from "../../src/core/nats/node/tcp-connector.ts";
import type { NatsPort } from "../../src/core/nats/port.ts";
import { createValidationEngine } from "../../src/core/packs/index.ts";
import { eventually, startNatsCluster, type NatsCluster } from "../helpers/nats-cluster.ts";
import { buildCli, startServeProcess, type BuiltCli, type ServeProcess } from "../helpers/serve-processes.ts";

const NS = "io.choria.fisk-ai.v1";
const identity = `spread-${crypto.randomUUID().slice(0, 8)}`;
const engine = createValidationEngine();
let cluster: NatsCluster;
let built: BuiltCli;
let port: NatsPort;
let nc: NatsConnection;
let client: FiskClient;
const instances: ServeProcess[] = [];

async function liveInstances(): Promise<InstanceLoad[]> {
  const listing = await client.listInstances(identity, { stallMs: 300 });
  return listing.kind === "instances" ? [...listing.instances] : [];
}

beforeAll(async () => {
  [cluster, built] = await Promise.all([startNatsCluster(), buildCli()]);
  for (let i = 0; i < 3; i++) {
    instances.push(await startServeProcess(built, ["--nats-url", cluster.nodes[i]!.url, "--identity", identity, "--instance", `inst-${i + 1}`, "--concurrency", "16"]));
  }
  port = await tcpConnector().connect({ servers: cluster.nodes[0]!.url, name: "instances-client" });
  nc = await connect({ servers: cluster.nodes[0]!.url, name: "instances-wire" });
  client = new FiskClient({ port, clock: systemClock(performance, Date), scheduler: systemScheduler(), random: (b) => crypto.getRandomValues(b), sender: DEFAULT_SENDER, validate: (t) => engine.session().validateText(t) });
  // Each instance subscribed on its own node; the client's node learns of them over the routes.
  await eventually(async () => (await liveInstances()).length === 3, "all three instances answering $SRV.STATS from node 1");
}, 90_000);

afterAll(async () => {
  await Promise.all(instances.map((p) => p.stop()));
  await port?.close();
  await nc?.close();
  await cluster?.stop();
  await built?.remove();
});

describe("one identity, three instances, a three-node cluster", () => {
  it("three instances share the load: each answers $SRV.STATS with its load, and calls spread over all three", async () => {
    expect(instances.map((p) => p.banner)).toEqual(instances.map((_, i) => expect.stringMatching(new RegExp(`^Serving ${identity} \\(instance inst-${i + 1}\\) over NATS on node patchbay-test-\\w+-n${i + 1} of cluster patchbay-test-\\w+ at 127\\.0\\.0\\.1:\\d+: 6 tool\\(s\\), tasks with the scripted runner$`))));
    const answeredBy = new Map<string, number>();
    const calls = Array.from({ length: 90 }, (_, i) => i);
    const worker = async () => {
      for (let i = calls.shift(); i !== undefined; i = calls.shift()) {
        const r = await client.callTool(identity, "echo", { message: `m${i}` });
        expect(r.outcome).toEqual({ kind: "output", output: `m${i}` });
        for (const v of r.verdicts ?? []) expect(v?.status).toBe("valid");
        const by = (r.set.entries.at(-1)!.value!.sender as { instance: string }).instance;
        answeredBy.set(by, (answeredBy.get(by) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));
    expect([...answeredBy.keys()].sort()).toEqual(["inst-1", "inst-2", "inst-3"]);
    const loads = await liveInstances();
    expect(loads.map((l) => l.instance)).toEqual(["inst-1", "inst-2", "inst-3"]);
    for (const load of loads) {
      const tool = load.endpoints.find((e) => e.name === "tool")!;
      expect(tool).toMatchObject({ errors: 0, inFlight: 0, capacity: 16 });
      expect(tool.requests).toBe(answeredBy.get(load.instance!));
      expect(load.endpoints.map((e) => e.name)).toEqual(["discovery", "tool", "task"]);
    }
  }, 60_000);

  it("discovery and tasks work whichever instance answers; one conversation's turns land anywhere and a read replays them all", async () => {
    const found = await client.discover(identity);
    expect(found.outcome).toMatchObject({ kind: "card", card: { name: identity, model: "patchbay-scripted" } });
    const first = client.startTask(identity, { kind: "prompt", prompt: 'run add {"a":2,"b":3}' });
    const result = await first.done;
    expect(result.terminal).toMatchObject({ protocol: `${NS}.result`, text: "5" });
    const by = new Set<string>([(first.entries[0]!.value!.sender as { instance: string }).instance]);
    let turn = first;
    for (let i = 0; i < 8; i++) {
      turn = turn.followUp(`turn ${i}`);
      const done = await turn.done;
      expect(done.terminal).toMatchObject({ protocol: `${NS}.result`, text: `turn ${i}` });
      by.add((turn.entries[0]!.value!.sender as { instance: string }).instance);
    }
    // The queue group spreads the turns; the conversation followed them from instance to instance.
    expect(by.size).toBeGreaterThan(1);
    const token = first.entries[0]!.value!.conversation_token as string;
    const read = client.startTask(identity, { kind: "read", conversation_token: token });
    await read.done;
    const prompts = read.entries.filter((e) => e.protocol === `${NS}.event.prompt`).map((e) => (e.value!.block as { text: string }).text);
    expect(prompts).toEqual(['run add {"a":2,"b":3}', ...Array.from({ length: 8 }, (_, i) => `turn ${i}`)]);
  }, 60_000);

  it("a task with a question, answered, then cancelled: the cancel is held and acked only by the instance running it", async () => {
    const task = client.startTask(identity, { kind: "prompt", prompt: 'run confirm {"action":"drop the table"}\nrun sleep {"seconds":60}' });
    const seen: TaskEvent[] = [];
    const sleeping = new Promise<void>((resolve) =>
      task.subscribe((e) => {
        seen.push(e);
        if (e.type === "entry" && e.entry.protocol === `${NS}.event.tool_call` && (e.entry.value!.block as { name: string }).name === "sleep") resolve();
      }),
    );
    await eventually(async () => task.openQuestions.length === 1, "the approval question");
    const question = task.openQuestions[0]!;
    expect(question).toMatchObject({ protocol: `${NS}.elicit.request.approve`, command: "confirm", display: 'confirm {"action":"drop the table"}', tag: "ai:confirm" });
    expect(await task.answer(question.question_id, { kind: "approve", choice: "once" })).toEqual({ kind: "accepted" });
    await sleeping;
    const runningOn = (task.entries[0]!.value!.sender as { instance: string }).instance;
    const subject = `choria.fisk-ai.cancel.${identity}.${task.request}`;
    // Across the cluster, one connection holds the task's cancel subject: the instance's own.
    const holders = (await Promise.all(cluster.nodes.map((n) => subscribersOf(n.monitorUrl, subject)))).flat();
    expect(holders).toEqual([`fisk-ai ${identity}`]);
    expect(await task.cancel("changed my mind")).toEqual({ kind: "accepted" });
    const done = await task.done;
    expect(done.terminal).toMatchObject({ protocol: `${NS}.error`, code: "canceled", error: "the task was cancelled: changed my mind" });
    expect((done.terminal!.sender as { instance: string }).instance).toBe(runningOn);
    const kinds = task.entries.map((e) => e.protocol?.slice(NS.length + 1));
    expect(kinds).toEqual(["ack", "event.tool_call", "elicit.request.approve", "event.tool_result", "event.tool_call", "error"]);
    expect(await task.cancel()).toEqual({ kind: "not-running" });
    // A raw cancel on the subject: no responders once the task ended.
    await expect(nc.request(subject, "{}", { timeout: 2000 })).rejects.toThrow(/no responders/i);
  }, 60_000);
});

/** The names of the connections on one node that subscribe `subject` (from /connz?subs=1). */
function subscribersOf(monitorUrl: string, subject: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    get(`${monitorUrl}/connz?subs=1&limit=1024`, { agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => {
        const connz = JSON.parse(body) as { connections?: { name?: string; subscriptions_list?: string[] }[] };
        resolve((connz.connections ?? []).filter((c) => c.subscriptions_list?.includes(subject)).map((c) => c.name ?? ""));
      });
    }).on("error", reject);
  });
}
