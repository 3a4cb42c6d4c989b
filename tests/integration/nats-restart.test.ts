/**
 * The only NATS server restarting mid-session, with a real `patchbay serve --nats` process and
 * Patchbay's client on it (its own server: the tier's shared one must not go down):
 *
 * - a call in flight ends at once, named ("disconnected"), and is never sent again
 * - the serving instance and the client reconnect within 5 s of the server's return (timed), the
 *   agent's subjects and $SRV endpoints come back, and calls work again
 * - a task read cut by the restart is replayed by request.read afterwards
 *
 * And `serve --nats` starting: a token from a named environment variable (never the command
 * line) against a server that requires one; a server that is not there, or credentials that
 * cannot be read, end it at once with the reason.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemClock, systemScheduler } from "../../src/core/env/index.ts";
import { DEFAULT_SENDER, FiskClient } from "../../src/core/fisk/client/index.ts";
import { tcpConnector } from "../../src/core/nats/node/tcp-connector.ts";
import type { NatsPort, NatsStatusEvent } from "../../src/core/nats/port.ts";
import { startNatsServer, type ManagedNats } from "../../server/nats/managed-nats.ts";
import { eventually } from "../helpers/nats-cluster.ts";
import { spawn } from "node:child_process";
import { buildCli, startServeProcess, type BuiltCli, type ServeProcess } from "../helpers/serve-processes.ts";

const NS = "io.choria.fisk-ai.v1";
const identity = `restart-${crypto.randomUUID().slice(0, 8)}`;
let server: ManagedNats;
let built: BuiltCli;
let proc: ServeProcess;
let port: NatsPort;
let client: FiskClient;
const events: { at: number; event: NatsStatusEvent }[] = [];

beforeAll(async () => {
  const [started, cli] = await Promise.all([startNatsServer(), buildCli()]);
  if (!started.ok) throw new Error(started.message);
  server = started.server;
  built = cli;
  proc = await startServeProcess(built, ["--nats-url", server.url, "--identity", identity, "--instance", "solo"]);
  port = await tcpConnector().connect({ servers: server.url, name: "restart-client" });
  port.onStatus((event) => events.push({ at: performance.now(), event }));
  client = new FiskClient({ port, clock: systemClock(performance, Date), scheduler: systemScheduler(), random: (b) => crypto.getRandomValues(b), sender: DEFAULT_SENDER });
}, 60_000);

afterAll(async () => {
  await proc?.stop();
  await port?.close();
  await server?.stop();
  await built?.remove();
});

const toolRequests = async (): Promise<number | undefined> => {
  const listing = await client.listInstances(identity, { stallMs: 200 });
  return listing.kind === "instances" ? listing.instances[0]?.endpoints.find((e) => e.name === "tool")?.requests : undefined;
};

describe("the only NATS server restarts mid-session", () => {
  it("a call in flight ends at once, named; the instance and the client are back within 5 s of the server's return; nothing ran twice", async () => {
    expect((await client.callTool(identity, "echo", { message: "before" })).outcome).toEqual({ kind: "output", output: "before" });
    const task = client.startTask(identity, { kind: "prompt", prompt: 'run slow {"seconds":4}' });
    const call = client.callTool(identity, "slow", { seconds: 4 });
    await eventually(async () => task.entries.length > 0 && (await toolRequests()) === 2, "the call and the task running on the instance");
    const from = proc.stdout().length;
    const downAt = performance.now();
    await server.down();
    const r = await call;
    const endedMs = performance.now() - downAt;
    expect(r.outcome).toMatchObject({ kind: "disconnected" });
    expect(endedMs).toBeLessThan(2000);
    const cut = await task.done;
    expect(cut.end).toMatchObject({ kind: "disconnected" });
    await new Promise((resolve) => setTimeout(resolve, 1500));

    await server.up();
    const upAt = performance.now();
    const back = await proc.waitFor(/^Reconnected \S+ \(instance solo\) to \S+ .* after (\d+) ms$/, 10_000, from);
    const instanceBackMs = performance.now() - upAt;
    const reconnected = () => events.find((e) => e.at > downAt && e.event.type === "reconnect");
    await eventually(async () => reconnected() !== undefined, "the client's reconnect", 10_000);
    // The client can be back before up() returns: up() also waits for the server's health check.
    const clientBackMs = Math.max(0, reconnected()!.at - upAt);
    let answeredMs = 0;
    await eventually(async () => {
      const again = await client.callTool(identity, "echo", { message: "after" }, { liveness: false, idleMs: 1000, allowShortIdle: true });
      answeredMs = performance.now() - upAt;
      return again.outcome.kind === "output";
    }, "a call answered after the restart");
    expect(instanceBackMs).toBeLessThan(5000);
    expect(clientBackMs).toBeLessThan(5000);
    expect(answeredMs).toBeLessThan(5000);
    // The in-flight call and the task's tool ran once each: the client never sent them again.
    await eventually(async () => (await toolRequests()) !== undefined, "$SRV.STATS answering again");
    const stats = await client.listInstances(identity, { stallMs: 200 });
    expect(stats.kind === "instances" && stats.instances[0]!.endpoints.find((e) => e.name === "tool")!.requests).toBeGreaterThanOrEqual(3);
    expect(stats.kind === "instances" && stats.instances[0]!.endpoints.find((e) => e.name === "task")!.requests).toBe(1);
    process.stdout.write(
      `server restart: the call in flight ended "${r.outcome.kind}" ${Math.round(endedMs)} ms after the server went down; after the server was back (healthy), the instance reconnected in ${Math.round(instanceBackMs)} ms (it reported ${back[1]} ms offline), the client in ${Math.round(clientBackMs)} ms, and a call was answered ${Math.round(answeredMs)} ms after it was back\n`,
    );

    // The task went on running on the instance; its conversation is read back once it ends.
    const token = cut.conversationTokenSeen ? (task.entries[0]!.value!.conversation_token as string) : "";
    expect(token).not.toBe("");
    await eventually(async () => {
      const read = client.startTask(identity, { kind: "read", conversation_token: token });
      await read.done;
      return read.entries.some((e) => e.protocol === `${NS}.event.tool_result`);
    }, "the task's turn kept for a read", 15_000);
  }, 60_000);
});

describe("serve --nats starting", () => {
  const exitOf = (args: string[], env: Record<string, string> = {}) =>
    new Promise<{ code: number | null; stderr: string; stdout: string }>((resolve) => {
      const child = spawn(process.execPath, [built.cli, "serve", "--nats", ...args], { cwd: built.dir, env: { ...process.env, NATS_URL: "", ...env } });
      let stderr = "";
      let stdout = "";
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.on("exit", (code) => resolve({ code, stderr, stdout }));
    });

  it("takes its token from a named environment variable, and is refused by the server without it", async () => {
    const secret = `t0k-${crypto.randomUUID()}`;
    const guarded = await startNatsServer({ extraConfig: `authorization { token: "${secret}" }` });
    if (!guarded.ok) throw new Error(guarded.message);
    try {
      const refused = await exitOf(["--nats-url", guarded.server.url]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^patchbay serve: could not connect to nats:\/\/127\.0\.0\.1:\d+: .*Authorization/im);
      const agent = await startServeProcess(built, ["--nats-url", guarded.server.url, "--identity", "guarded", "--token-env", "AGENT_TOKEN"], { AGENT_TOKEN: secret });
      try {
        expect(agent.banner).toMatch(/^Serving guarded \(instance pb-\w{8}\) over NATS on node /);
        expect(agent.stdout() + agent.stderr()).not.toContain(secret);
      } finally {
        await agent.stop();
      }
    } finally {
      await guarded.server.stop();
    }
  }, 30_000);

  it("a server that is not there, or a credentials file that cannot be read, ends it at once with the reason", async () => {
    const nothing = await exitOf(["--nats-url", "nats://127.0.0.1:1"]);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toMatch(/^patchbay serve: could not connect to nats:\/\/127\.0\.0\.1:1/m);
    const noFile = await exitOf(["--nats-url", server.url, "--creds", "/nonexistent/user.creds"]);
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toBe("patchbay serve: cannot read the credentials file (ENOENT)\n");
  }, 30_000);
});
