/**
 * How Patchbay's served fisk-ai agent scales out: real `patchbay serve --nats` processes of one
 * identity on a real three-node nats-server cluster (instances spread over the nodes), driven by
 * one client with 4 calls in flight per instance (each instance's own limit), at 1, 2 and 4
 * instances. Throughput is reported as a ratio to one instance, measured in the same run, for
 * two tools: one that waits (`slow`, 50 ms: the instances are not CPU-bound, so their count is
 * what limits) and one that costs only CPU (`echo`: every call is schema-checked, encoded and
 * routed, so the machine's cores limit). A call refused for capacity (the queue group gave one
 * instance a fifth call) is sent again and counted.
 * Usage: node bench/run.mjs serve-nats-scale [--seconds N] [--wait-ms N]
 */
import { availableParallelism, loadavg } from "node:os";
import * as nats from "@nats-io/transport-node";
import { systemClock, systemScheduler } from "../src/core/env/index.ts";
import { DEFAULT_SENDER, FiskClient } from "../src/core/fisk/client/index.ts";
import { adaptConnection, connectOptions } from "../src/core/nats/connection-adapter.ts";
import { startNatsCluster } from "../tests/helpers/nats-cluster.ts";
import { buildCli, startServeProcess, type ServeProcess } from "../tests/helpers/serve-processes.ts";
import { option } from "./bench-stats.ts";

const PER_INSTANCE = 4;
const COUNTS = [1, 2, 4] as const;

interface Point {
  readonly instances: number;
  readonly perSecond: number;
  readonly refusals: number;
  readonly failures: number;
}

async function drive(client: FiskClient, identity: string, tool: string, input: Record<string, unknown>, inFlight: number, seconds: number): Promise<Omit<Point, "instances">> {
  let done = 0;
  let refusals = 0;
  let failures = 0;
  let measuring = false;
  let stop = false;
  const worker = async () => {
    while (!stop) {
      const r = await client.callTool(identity, tool, input, { liveness: false });
      if (r.outcome.kind === "capacity") refusals += measuring ? 1 : 0;
      else if (r.outcome.kind === "output") done += measuring ? 1 : 0;
      else failures++;
    }
  };
  const workers = Array.from({ length: inFlight }, worker);
  await new Promise((r) => setTimeout(r, 1000));
  measuring = true;
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  measuring = false;
  const elapsed = (performance.now() - t0) / 1000;
  stop = true;
  await Promise.all(workers);
  return { perSecond: done / elapsed, refusals, failures };
}

const ratio = (p: Point, base: Point): string => `${(p.perSecond / base.perSecond).toFixed(2)}x`;

export async function run(args: readonly string[]): Promise<number> {
  const seconds = option(args, "--seconds", 5);
  const waitMs = option(args, "--wait-ms", 50);
  const [cluster, built] = await Promise.all([startNatsCluster(), buildCli()]);
  const identity = `scale-${crypto.randomUUID().slice(0, 8)}`;
  const processes: ServeProcess[] = [];
  let port: Awaited<ReturnType<typeof connect>> | undefined;
  async function connect() {
    return adaptConnection(await nats.connect(connectOptions({ servers: cluster.nodes[0]!.url, name: "scale-bench" }, nats)), nats);
  }
  try {
    port = await connect();
    const client = new FiskClient({ port, clock: systemClock(performance, Date), scheduler: systemScheduler(), random: (b) => crypto.getRandomValues(b), sender: DEFAULT_SENDER });
    const waiting: Point[] = [];
    const cpu: Point[] = [];
    for (const count of COUNTS) {
      while (processes.length < count) {
        const i = processes.length;
        processes.push(await startServeProcess(built, ["--nats-url", cluster.nodes[i % 3]!.url, "--identity", identity, "--instance", `s${i + 1}`, "--concurrency", String(PER_INSTANCE)]));
      }
      for (let tries = 0; ; tries++) {
        const listing = await client.listInstances(identity, { stallMs: 300 });
        if (listing.kind === "instances" && listing.instances.length === count) break;
        if (tries > 100) throw new Error(`only some of the ${count} instances answer $SRV.STATS`);
        await new Promise((r) => setTimeout(r, 100));
      }
      waiting.push({ instances: count, ...(await drive(client, identity, "slow", { seconds: waitMs / 1000 }, PER_INSTANCE * count, seconds)) });
      cpu.push({ instances: count, ...(await drive(client, identity, "echo", { message: "x".repeat(200) }, PER_INSTANCE * count, seconds)) });
    }
    const line = (name: string, points: Point[]) =>
      `${name}${points.map((p) => `${p.instances} → ${p.perSecond.toFixed(0)}/s (${ratio(p, points[0]!)})`).join(", ")}; capacity refusals sent again: ${points.map((p) => p.refusals).join("/")}; other failures: ${points.reduce((n, p) => n + p.failures, 0)}`;
    const goal = (points: Point[]) => {
      const at2 = points[1]!.perSecond / points[0]!.perSecond;
      const at4 = points[2]!.perSecond / points[0]!.perSecond;
      return `goal >= 1.8x at 2 and >= 3x at 4: ${at2 >= 1.8 && at4 >= 3 ? "met" : `not met (${at2.toFixed(2)}x, ${at4.toFixed(2)}x)`}`;
    };
    process.stdout.write(
      [
        `serve-nats-scale bench: one identity on a 3-node nats-server cluster, instances spread over the nodes, ${PER_INSTANCE} calls in flight per instance from one client, ${seconds} s per point after 1 s of warm-up`,
        `  this machine: ${availableParallelism()} CPUs for the client, ${COUNTS.at(-1)} serving processes and 3 nats-servers; load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}`,
        line(`  waiting tool (slow ${waitMs} ms):  `, waiting),
        `    ${goal(waiting)}`,
        line("  CPU-bound tool (echo):          ", cpu),
        `    ${goal(cpu)} (bounded by the machine's cores)`,
      ].join("\n") + "\n",
    );
    return waiting.concat(cpu).some((p) => p.failures > 0) ? 1 : 0;
  } finally {
    await Promise.all(processes.map((p) => p.stop()));
    await port?.close();
    await cluster.stop();
    await built.remove();
  }
}
