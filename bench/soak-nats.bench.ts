/**
 * Soak: mixed fisk-ai traffic against three real `patchbay serve --nats` instances of one identity
 * on a real three-node cluster for N minutes (default 30): tool calls (echo, add, a short wait, a
 * non-zero exit), tasks (a tool run, an echo, follow-ups, reads, an approval answered, a cancel),
 * discovery and $SRV.STATS. Reports each process's resident memory (serving instances, nats-servers
 * and this client) at the start (after a warm-up) and at the end, and every outcome counted.
 * Not part of `npm test`.
 * Usage: node bench/run.mjs soak-nats [--minutes N] [--concurrency N]
 */
import { readFile } from "node:fs/promises";
import * as nats from "@nats-io/transport-node";
import { systemClock, systemScheduler } from "../src/core/env/index.ts";
import { DEFAULT_SENDER, FiskClient } from "../src/core/fisk/client/index.ts";
import { adaptConnection, connectOptions } from "../src/core/nats/connection-adapter.ts";
import { startNatsCluster } from "../tests/helpers/nats-cluster.ts";
import { buildCli, startServeProcess, type ServeProcess } from "../tests/helpers/serve-processes.ts";
import { option } from "./bench-stats.ts";

const NS = "io.choria.fisk-ai.v1";

/** Resident set size of a process in MB, from /proc (Linux). */
async function rssMb(pid: number): Promise<number> {
  try {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? "0");
    return kb / 1024;
  } catch {
    return Number.NaN;
  }
}

export async function run(args: readonly string[]): Promise<number> {
  const minutes = option(args, "--minutes", 30);
  const concurrency = option(args, "--concurrency", 6);
  const [cluster, built] = await Promise.all([startNatsCluster(), buildCli()]);
  const identity = `soak-${crypto.randomUUID().slice(0, 8)}`;
  const instances: ServeProcess[] = [];
  const counts = new Map<string, number>();
  const count = (what: string) => counts.set(what, (counts.get(what) ?? 0) + 1);
  let port: ReturnType<typeof adaptConnection> | undefined;
  try {
    for (let i = 0; i < 3; i++) instances.push(await startServeProcess(built, ["--nats-url", cluster.nodes[i]!.url, "--identity", identity, "--instance", `soak${i + 1}`, "--concurrency", "8"]));
    port = adaptConnection(await nats.connect(connectOptions({ servers: cluster.nodes[0]!.url, name: "soak-client" }, nats)), nats);
    const client = new FiskClient({ port, clock: systemClock(performance, Date), scheduler: systemScheduler(), random: (b) => crypto.getRandomValues(b), sender: DEFAULT_SENDER });
    for (let tries = 0; ; tries++) {
      const listing = await client.listInstances(identity, { stallMs: 300 });
      if (listing.kind === "instances" && listing.instances.length === 3) break;
      if (tries > 100) throw new Error("the three instances did not all answer $SRV.STATS");
      await new Promise((r) => setTimeout(r, 100));
    }
    const tool = async (name: string, input: Record<string, unknown>, expect: (kind: string) => boolean) => {
      const r = await client.callTool(identity, name, input);
      count(expect(r.outcome.kind) ? `tool ${name}: ok` : `tool ${name}: ${r.outcome.kind}`);
    };
    const task = async () => {
      const first = client.startTask(identity, { kind: "prompt", prompt: 'run add {"a":2,"b":3}' });
      const r = await first.done;
      count(r.terminal?.protocol === `${NS}.result` ? "task run: ok" : `task run: ${r.end.kind}`);
      const next = first.followUp("thanks");
      count((await next.done).terminal?.protocol === `${NS}.result` ? "task follow-up: ok" : "task follow-up: failed");
      const token = first.entries[0]?.value?.conversation_token;
      if (typeof token === "string") {
        const read = client.startTask(identity, { kind: "read", conversation_token: token });
        await read.done;
        count(read.entries.some((e) => e.protocol === `${NS}.event.prompt`) ? "task read: ok" : "task read: empty");
      }
    };
    const approval = async () => {
      const h = client.startTask(identity, { kind: "prompt", prompt: 'run confirm {"action":"soak"}' });
      const off = h.subscribe((e) => {
        if (e.type === "question") void h.answer(e.question.question_id, { kind: "approve", choice: "once" });
      });
      const r = await h.done;
      off();
      count(r.terminal?.protocol === `${NS}.result` ? "task approval: ok" : `task approval: ${r.end.kind}`);
    };
    const cancel = async () => {
      const h = client.startTask(identity, { kind: "prompt", prompt: 'run slow {"seconds":30}' });
      await new Promise<void>((resolve) => h.subscribe((e) => e.type === "entry" && e.entry.disposition === "ack" && resolve()));
      const c = await h.cancel("soak");
      const r = await h.done;
      count(c.kind === "accepted" && (r.terminal as { code?: string } | undefined)?.code === "canceled" ? "task cancel: ok" : "task cancel: failed");
    };
    const mix: (() => Promise<void>)[] = [
      () => tool("echo", { message: "soak" }, (k) => k === "output"),
      () => tool("add", { a: 1, b: 2 }, (k) => k === "output"),
      () => tool("slow", { seconds: 0.2 }, (k) => k === "output"),
      () => tool("fail", { exit_code: 3, output: "boom\n" }, (k) => k === "ran"),
      task,
      approval,
      cancel,
      async () => void count((await client.discover(identity)).outcome.kind === "card" ? "discovery: ok" : "discovery: failed"),
      async () => void count((await client.listInstances(identity)).kind === "instances" ? "stats: ok" : "stats: failed"),
    ];
    const pids = () => [
      ...instances.map((p, i) => [`instance soak${i + 1}`, p.child.pid!] as const),
      ...cluster.nodes.map((n, i) => [`nats-server n${i + 1}`, n.pid] as const),
      ["this client", process.pid] as const,
    ];
    const memory = async () => Object.fromEntries(await Promise.all(pids().map(async ([name, pid]) => [name, await rssMb(pid)] as const)));
    let stop = false;
    let step = 0;
    const worker = async () => {
      while (!stop) await mix[step++ % mix.length]!();
    };
    const workers = Array.from({ length: concurrency }, worker);
    await new Promise((r) => setTimeout(r, 10_000));
    const start = await memory();
    const startedAt = performance.now();
    const end = startedAt + minutes * 60_000;
    for (let left = end - performance.now(); left > 0; left = end - performance.now()) {
      await new Promise((r) => setTimeout(r, Math.min(60_000, left)));
      const total = [...counts.values()].reduce((a, b) => a + b, 0);
      process.stdout.write(`soak: ${((performance.now() - startedAt) / 60_000).toFixed(1)} min, ${total} operations\n`);
    }
    stop = true;
    await Promise.all(workers);
    const finish = await memory();
    const failed = [...counts.entries()].filter(([k]) => !k.endsWith(": ok"));
    process.stdout.write(
      [
        `soak-nats: ${minutes} min of mixed traffic, ${concurrency} at a time, against 3 instances of one identity on a 3-node cluster`,
        `  outcomes: ${[...counts.entries()].sort().map(([k, v]) => `${k} ${v}`).join(", ")}`,
        "  resident memory (MB) at the start (after 10 s of warm-up) -> at the end:",
        ...Object.keys(start).map((name) => `    ${name}: ${start[name]!.toFixed(1)} -> ${finish[name]!.toFixed(1)}`),
        failed.length > 0 ? `  NOT OK: ${failed.map(([k, v]) => `${k} ${v}`).join(", ")}` : "  every operation had the outcome it should",
      ].join("\n") + "\n",
    );
    return failed.length > 0 ? 1 : 0;
  } finally {
    await Promise.all(instances.map((p) => p.stop()));
    await port?.close();
    await cluster.stop();
    await built.remove();
  }
}
