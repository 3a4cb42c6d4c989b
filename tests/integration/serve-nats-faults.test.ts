/**
 * Faults on a real three-node nats-server cluster with real `patchbay serve --nats` processes:
 *
 * - "a node restarting under a serving instance…"  the instance moves to another node at once, its
 *   call in flight ends with one named outcome, the tool ran once, and the node rejoins
 * - "patchbay start pointed at the cluster…"  it says which node it is on, and which one after that node goes down
 * - "the kill test"  500 calls, 4 in flight per instance, one of three instances SIGKILLed halfway:
 *   results and named failures add up to 500, no call is answered twice, the others take the rest
 */
import { connect, type Msg, type NatsConnection } from "@nats-io/transport-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemClock, systemScheduler } from "../../src/core/env/index.ts";
import { DEFAULT_SENDER, FiskClient, type ToolOutcome } from "../../src/core/fisk/client/index.ts";
import { tcpConnector } from "../../src/core/nats/node/tcp-connector.ts";
import type { NatsPort } from "../../src/core/nats/port.ts";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BackendStatus } from "../../src/core/backend/backend-client.ts";
import { send } from "../helpers/http-client.ts";
import { trackedCli } from "../helpers/processes.ts";
import { eventually, startNatsCluster, type NatsCluster } from "../helpers/nats-cluster.ts";
import { buildCli, startServeProcess, type BuiltCli, type ServeProcess } from "../helpers/serve-processes.ts";

const NS = "io.choria.fisk-ai.v1";
let cluster: NatsCluster;
let built: BuiltCli;
let port: NatsPort;
let client: FiskClient;
const processes: ServeProcess[] = [];

beforeAll(async () => {
  [cluster, built] = await Promise.all([startNatsCluster(), buildCli()]);
  port = await tcpConnector().connect({ servers: cluster.nodes[0]!.url, name: "faults-client" });
  client = new FiskClient({ port, clock: systemClock(performance, Date), scheduler: systemScheduler(), random: (b) => crypto.getRandomValues(b), sender: DEFAULT_SENDER });
}, 60_000);

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop("SIGKILL")));
  await port?.close();
  await cluster?.stop();
  await built?.remove();
});

async function serve(identity: string, node: number, instance: string, extra: string[] = []): Promise<ServeProcess> {
  const proc = await startServeProcess(built, ["--nats-url", cluster.nodes[node]!.url, "--identity", identity, "--instance", instance, ...extra]);
  processes.push(proc);
  return proc;
}

async function instancesOf(identity: string): Promise<string[]> {
  const listing = await client.listInstances(identity, { stallMs: 300 });
  return listing.kind === "instances" ? listing.instances.map((i) => i.instance ?? "?") : [];
}

const toolRequests = async (identity: string, instance: string): Promise<number | undefined> => {
  const listing = await client.listInstances(identity, { stallMs: 300 });
  const load = listing.kind === "instances" ? listing.instances.find((i) => i.instance === instance) : undefined;
  return load?.endpoints.find((e) => e.name === "tool")?.requests;
};

const runCli = trackedCli();

describe("faults on a three-node cluster", () => {
  it("patchbay start pointed at the cluster (several NATS_URLs) says which node it is on, and which one after that node goes down", async () => {
    const root = await mkdtemp(join(tmpdir(), "patchbay-start-cluster-"));
    let index = -1;
    try {
      await mkdir(join(root, "dist"));
      await writeFile(join(root, "dist", "index.html"), '<meta name="patchbay-token" content="%PATCHBAY_TOKEN%">');
      // Node 2 first: nats.js may shuffle the list, so the node is read from what the backend says.
      const cli = runCli(["start", "--port", "0", "--dist", join(root, "dist"), "--workspace", join(root, "ws")], { NATS_URL: cluster.urls, NATS_WS_URL: cluster.wsUrl });
      const url = await cli.launchUrl();
      await eventually(async () => /NATS: on node /.test(cli.stdout.join("")), "the node line");
      const line = /NATS: on node (\S+) of cluster (\S+) at \S+ \((\d+) other node\(s\) known\)/.exec(cli.stdout.join(""));
      expect(line?.[2]).toBe(cluster.name);
      expect(Number(line?.[3])).toBe(2);
      const status = async () => (await send({ port: Number(url.port), path: "/api/status", headers: { authorization: `Bearer ${url.searchParams.get("token")}` } })).json<BackendStatus>();
      expect((await status()).nats).toMatchObject({ mode: "external", wsUrl: cluster.wsUrl, node: { name: line![1], cluster: cluster.name, connected: true, peers: 2 } });
      index = cluster.nodes.findIndex((_, i) => line![1]!.endsWith(`-n${i + 1}`));
      await cluster.nodes[index]!.down();
      await eventually(async () => /NATS: reconnected, on node (\S+)/.exec(cli.stdout.join(""))?.[1] !== undefined, "the reconnect line");
      const moved = /NATS: reconnected, on node (\S+)/.exec(cli.stdout.join(""))![1];
      expect(moved).not.toBe(line![1]);
      expect((await status()).nats.node).toMatchObject({ name: moved, connected: true });
      await cluster.nodes[index]!.up();
      await cluster.routed();
      cli.stop();
      expect(await cli.done).toBe(0);
    } finally {
      // A failure above must not leave the node down for the tests after this one.
      if (index >= 0) await cluster.nodes[index]!.up();
      await rm(root, { recursive: true, force: true });
    }
  }, 60_000);

  it("a node restarting under a serving instance: the instance moves to another node at once, its call in flight gets one named outcome, the node rejoins", async () => {
    const identity = `node-${crypto.randomUUID().slice(0, 8)}`;
    // The node to restart is one the test's own client is not on: an earlier test's restart may have moved it off node 1.
    const clientNode = port.node?.()?.name ?? "";
    const victim = [2, 1, 0].find((i) => !clientNode.endsWith(`-n${i + 1}`))!;
    const instance = `on-n${victim + 1}`;
    const proc = await serve(identity, victim, instance);
    try {
      await eventually(async () => (await instancesOf(identity)).length === 1, "the instance answering");
      const call = client.callTool(identity, "slow", { seconds: 3 }, { liveness: { instanceSilenceMs: 2000 } });
      await eventually(async () => (await toolRequests(identity, instance)) === 1, "the call reaching the instance");
      const from = proc.stdout().length;
      const downAt = performance.now();
      await cluster.nodes[victim]!.down();
      const moved = await proc.waitFor(new RegExp(`^Reconnected \\S+ \\(instance ${instance}\\) to node (\\S+) .* after (\\d+) ms$`), 10_000, from);
      const movedMs = performance.now() - downAt;
      expect(moved[1]).not.toMatch(new RegExp(`-n${victim + 1}$`));
      expect(movedMs).toBeLessThan(5000);
      const r = await call;
      // Either the reply the instance held while it moved, or a named failure; never a silent wait.
      expect(["ran", "output", "instance-gone", "idle-timeout"]).toContain(r.outcome.kind);
      if (r.outcome.kind === "output") expect(r.outcome.output).toBe("finished after 3 s");
      await eventually(async () => (await instancesOf(identity)).length === 1, "the instance answering again from its new node");
      // Nothing was sent again: the instance counted the one call.
      expect(await toolRequests(identity, instance)).toBe(1);
      const after = await client.callTool(identity, "echo", { message: "still here" });
      expect(after.outcome).toEqual({ kind: "output", output: "still here" });
      const upAt = performance.now();
      await cluster.nodes[victim]!.up();
      await cluster.routed();
      const rejoinedMs = performance.now() - upAt;
      expect(rejoinedMs).toBeLessThan(10_000);
      process.stdout.write(`node restart: the instance moved to ${moved[1]} ${Math.round(movedMs)} ms after its node went down (it reported ${moved[2]} ms); the call in flight ended ${r.outcome.kind}; the node rejoined the cluster ${Math.round(rejoinedMs)} ms after it was back\n`);
    } finally {
      // A failure above must not leave the node down for the tests after this one.
      await cluster.nodes[victim]!.up();
      await cluster.routed();
      await proc.stop();
    }
  }, 60_000);

  it("the kill test: 500 calls, 4 in flight per instance, one of three instances killed halfway; every call has exactly one outcome", async () => {
    const identity = `kill-${crypto.randomUUID().slice(0, 8)}`;
    const three = await Promise.all([0, 1, 2].map((n) => serve(identity, n, `k${n + 1}`, ["--concurrency", "16"])));
    await eventually(async () => (await instancesOf(identity)).length === 3, "three instances answering from node 1");
    // Every tool.reply on any inbox, by request: a call answered twice would show two.
    const nc: NatsConnection = await connect({ servers: cluster.nodes[0]!.url, name: "kill-tap" });
    const replies = new Map<string, number>();
    nc.subscribe("_INBOX.>", {
      callback: (_err: Error | null, m: Msg) => {
        try {
          const v = m.json<{ protocol?: string; request?: string }>();
          if (v.protocol === `${NS}.tool.reply` && v.request) replies.set(v.request, (replies.get(v.request) ?? 0) + 1);
        } catch {
          // A status message or an empty body.
        }
      },
    });
    await nc.flush();
    const CALLS = 500;
    const outcomes: { outcome: ToolOutcome; request: string; by?: string }[] = [];
    let next = 0;
    let killed: number | undefined;
    const worker = async () => {
      for (let i = next++; i < CALLS; i = next++) {
        if (killed === undefined && outcomes.length >= CALLS / 2) {
          killed = outcomes.length;
          three[1]!.child.kill("SIGKILL");
        }
        const r = await client.callTool(identity, "slow", { seconds: 0.05 }, { idleMs: 10_000, allowShortIdle: true, liveness: { instanceSilenceMs: 1500 } });
        const by = r.set.entries.find((e) => e.disposition === "ack")?.value?.sender as { instance?: string } | undefined;
        outcomes.push({ outcome: r.outcome, request: r.request, ...(by?.instance ? { by: by.instance } : {}) });
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: 12 }, worker));
    const elapsed = performance.now() - started;
    await nc.flush();
    await nc.close();

    const count = (kind: string) => outcomes.filter((o) => o.outcome.kind === kind).length;
    const results = count("output");
    const failures = outcomes.filter((o) => o.outcome.kind !== "output");
    process.stdout.write(
      `kill test: ${CALLS} calls in ${Math.round(elapsed)} ms, k2 killed after ${killed} outcomes; ${results} results, ${count("instance-gone")} instance-gone, ${count("idle-timeout")} idle-timeout; answered by k1 ${outcomes.filter((o) => o.by === "k1").length}, k2 ${outcomes.filter((o) => o.by === "k2").length}, k3 ${outcomes.filter((o) => o.by === "k3").length}; ${[...replies.values()].every((n) => n === 1) ? "no request answered twice" : "SOME REQUEST ANSWERED TWICE"}\n`,
    );
    expect(new Set(outcomes.map((o) => o.request)).size).toBe(CALLS);
    expect(results + failures.length).toBe(CALLS);
    // Named failures only: the killed instance's calls, or one the dead socket swallowed before its ack.
    for (const f of failures) expect(["instance-gone", "idle-timeout"]).toContain(f.outcome.kind);
    for (const f of failures.filter((x) => x.outcome.kind === "instance-gone")) expect(f.outcome).toMatchObject({ instance: "k2" });
    expect(failures.length).toBeLessThanOrEqual(16);
    // No request was answered twice, and every result was its own call's reply.
    expect([...replies.values()].every((n) => n === 1)).toBe(true);
    for (const o of outcomes.filter((x) => x.outcome.kind === "output")) expect(replies.get(o.request)).toBe(1);
    // The survivors took the rest: past the calls in flight at the kill, k2 answered nothing.
    const after = outcomes.slice(killed! + 12);
    expect(after.filter((o) => o.by === "k2" && o.outcome.kind === "output")).toEqual([]);
    expect(new Set(after.filter((o) => o.outcome.kind === "output").map((o) => o.by))).toEqual(new Set(["k1", "k3"]));
    expect((await three[1]!.exit).signal).toBe("SIGKILL");
  }, 120_000);
});
