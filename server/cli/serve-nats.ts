/**
 * `patchbay serve --nats`: the fisk-ai surface, headless. Several processes started with one
 * identity share its load through the queue group, each under its own instance name; a NATS
 * server (or cluster node) that restarts is reconnected to, and the agent's subjects come back
 * with the connection.
 */
import { availableParallelism } from "node:os";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { systemClock, systemScheduler } from "../../src/core/env/index.ts";
import { tcpConnector } from "../../src/core/nats/node/tcp-connector.ts";
import type { NatsAuth, NatsNode, NatsPort } from "../../src/core/nats/port.ts";
import { redactServers } from "../../src/core/nats/server-credentials.ts";
import { createValidationEngine } from "../../src/core/packs/index.ts";
import { engineValidator, startFiskServer, type FiskServer } from "../../src/core/serving/fisk/index.ts";
import { nodeCommandRunner } from "../../src/core/serving/node/command-runner.ts";
import type { Toolkit } from "../../src/core/serving/toolkit/toolkit-types.ts";
import { VERSION } from "../version.ts";
import type { NatsServeArgs } from "./serve-nats-args.ts";
import type { ServeArgs, ServeDeps } from "./serve.ts";

/** Where a connection is, in one phrase: the node's name and the URL it answers on. */
export function nodeWords(node: NatsNode | undefined, url: string): string {
  if (!node) return redactServers(url);
  return `node ${node.name}${node.cluster ? ` of cluster ${node.cluster}` : ""} at ${redactServers(node.url)}`;
}

/** The NATS login the flags name; reads a credentials file relative to `cwd`. */
export async function authOf(args: NatsServeArgs, cwd: string): Promise<NatsAuth | undefined> {
  if (args.token !== undefined) return { token: args.token };
  if (args.user !== undefined) return { user: args.user, pass: args.password ?? "" };
  if (args.credsFile !== undefined) return { creds: await readFile(resolve(cwd, args.credsFile), "utf8") };
  if (args.nkeyFile !== undefined) return { nkeySeed: (await readFile(resolve(cwd, args.nkeyFile), "utf8")).trim() };
  return undefined;
}

const stopped = (signal: AbortSignal) =>
  new Promise<void>((done) => (signal.aborted ? done() : signal.addEventListener("abort", () => done(), { once: true })));

/** Serves until the signal aborts or the connection closes for good; resolves with the exit code. */
export async function runNatsServe(toolkit: Toolkit, args: ServeArgs, nats: NatsServeArgs, deps: ServeDeps): Promise<number> {
  const say = (text: string) => deps.stderr(`patchbay serve: ${text}\n`);
  let auth: NatsAuth | undefined;
  try {
    auth = await authOf(nats, deps.cwd);
  } catch (err) {
    say(`cannot read the credentials file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    return 2;
  }
  const identity = nats.identity ?? toolkit.name;
  let port: NatsPort;
  try {
    port = await tcpConnector().connect({ servers: nats.servers, name: `fisk-ai ${identity}`, ...(auth ? { auth } : {}) });
  } catch (err) {
    say((err as Error).message);
    return 1;
  }
  let server: FiskServer;
  try {
    server = await startFiskServer({
      port,
      toolkit,
      identity,
      ...(nats.instance !== undefined ? { instance: nats.instance } : {}),
      clock: systemClock(performance, Date),
      scheduler: systemScheduler(),
      random: (b) => crypto.getRandomValues(b),
      cpuCount: availableParallelism(),
      ...(args.concurrency !== undefined ? { concurrency: args.concurrency } : {}),
      ...(args.timeoutMs !== undefined ? { callTimeoutMs: args.timeoutMs } : {}),
      ...(nats.keepaliveMs !== undefined ? { keepaliveMs: nats.keepaliveMs } : {}),
      ...(nats.taskWorkers !== undefined ? { taskWorkers: nats.taskWorkers } : {}),
      version: VERSION,
      validate: engineValidator(createValidationEngine()),
      runner: nodeCommandRunner(),
      logger: deps.logger,
    });
  } catch (err) {
    say(`cannot serve ${identity}: ${(err as Error).message}`);
    await port.close().catch(() => undefined);
    return 1;
  }
  const { instance } = server;
  let lostAt: number | undefined;
  let closed = false;
  const gone = new AbortController();
  port.onStatus((event) => {
    if (event.type === "disconnect") {
      lostAt = performance.now();
      deps.logger.warn("disconnected from NATS; reconnecting", { instance, server: redactServers(event.server ?? port.server) });
    } else if (event.type === "reconnect") {
      const after = lostAt === undefined ? 0 : Math.round(performance.now() - lostAt);
      // Printed, not only logged: a script waiting for the instance to be back reads this line.
      deps.stdout(`Reconnected ${identity} (instance ${instance}) to ${nodeWords(port.node?.(), port.server)} after ${after} ms\n`);
    } else if (event.type === "closed") {
      closed = true;
      gone.abort();
    }
  });
  const tools = server.served.filter((e) => e.served).length;
  deps.stdout(`Serving ${identity} (instance ${instance}) over NATS on ${nodeWords(port.node?.(), port.server)}: ${tools} tool(s), tasks with the scripted runner\n`);
  await Promise.race([stopped(deps.signal), stopped(gone.signal)]);
  if (closed) {
    say(`the NATS connection closed; ${identity} (instance ${instance}) is no longer served`);
    await server.stop();
    return 1;
  }
  deps.logger.info("stopping", { instance });
  await server.stop();
  await port.close().catch(() => undefined);
  return 0;
}
