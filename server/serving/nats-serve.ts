/**
 * The backend's fisk-ai surface: serves a toolkit as a fisk-ai peer on the backend's NATS server
 * (managed or external), one agent at a time. It opens its own connection to that server, named
 * `fisk-ai <identity>` as fisk-ai names its own, and closes it on stop.
 */
import { availableParallelism } from "node:os";
import type { Logger } from "../../src/core/env/environment.ts";
import { systemClock, systemScheduler } from "../../src/core/env/index.ts";
import type { NatsAuth, NatsConnector, NatsPort } from "../../src/core/nats/port.ts";
import { tcpConnector } from "../../src/core/nats/node/tcp-connector.ts";
import { DEMO_TOOLKIT } from "../../src/core/serving/demo-toolkit.ts";
import {
  defaultConcurrency,
  engineValidator,
  startFiskServer,
  type FiskGeneration,
  type FiskServer,
  type FiskServerStatus,
  type FiskValidator,
} from "../../src/core/serving/fisk/index.ts";
import { nodeCommandRunner } from "../../src/core/serving/node/command-runner.ts";
import type { CommandRunner } from "../../src/core/serving/run-types.ts";
import { servedSet } from "../../src/core/serving/toolkit/served-set.ts";
import { readToolkit } from "../../src/core/serving/toolkit/toolkit-read.ts";
import type { Toolkit } from "../../src/core/serving/toolkit/toolkit-types.ts";
import { discoverySubject, toolSubject } from "../../src/core/fisk/codec/index.ts";
import { FrameRing } from "./frame-ring.ts";
import type { SharedLimit } from "./shared-limit.ts";
import { recordingNatsPort } from "./nats-frame-port.ts";

/** Where the agent connects: the backend's NATS server, or why there is none. */
export type NatsTarget = { readonly url: string; readonly auth?: NatsAuth } | { readonly unavailable: string };

export interface NatsServeDeps {
  readonly logger: Logger;
  readonly nats: () => NatsTarget;
  /** Default: the TCP connector. */
  readonly connector?: NatsConnector;
  /** What is served when a start names no toolkit; default the demo toolkit. */
  readonly defaultToolkit?: () => Toolkit;
  /** Default: this machine's available parallelism. */
  readonly cpuCount?: number;
  /** The card's version; default "dev". */
  readonly version?: string;
  /** Default: the Node command runner (argv, no shell, scrubbed environment). */
  readonly runner?: CommandRunner;
  /** The concurrency limit shared with the other served surfaces; absent, the agent keeps its own. */
  readonly limit?: SharedLimit;
}

/** What a start may set; every field optional. */
export interface NatsServeStart {
  readonly toolkit?: unknown;
  readonly concurrency?: number;
  readonly generation?: FiskGeneration;
  readonly keepaliveMs?: number;
  readonly callTimeoutMs?: number;
}

export interface StoppedStatus {
  readonly serving: false;
  readonly identity: string;
  readonly subjects: { readonly discovery: string; readonly tool: string } | null;
  readonly served: readonly { readonly name: string; readonly served: boolean; readonly reason: string }[];
  /** Why the last start or the connection failed, if it did. */
  readonly message?: string;
}

export type NatsServeStatus = (FiskServerStatus & { readonly serving: true; readonly server: string }) | StoppedStatus;

/** A refusal with the HTTP status it maps to. */
export class NatsServeError extends Error {
  override readonly name = "NatsServeError";
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export interface NatsServe {
  /** What the served agent received and sent, kept across starts for the console to read. */
  readonly frames: FrameRing;
  status(): NatsServeStatus;
  start(input: NatsServeStart): Promise<NatsServeStatus>;
  stop(): Promise<NatsServeStatus>;
}

interface Running {
  readonly server: FiskServer;
  readonly port: NatsPort;
}

function toolkitOf(raw: unknown, fallback: () => Toolkit): Toolkit {
  if (raw === undefined) return fallback();
  const read = readToolkit(raw);
  const errors = read.issues.filter((i) => i.severity === "error");
  if (!read.toolkit || errors.length > 0) {
    const list = errors.slice(0, 5).map((i) => `${i.pointer || "/"}: ${i.message}`).join("; ");
    throw new NatsServeError(400, "invalid_toolkit", `the toolkit cannot be served: ${list}`);
  }
  return read.toolkit;
}

function subjectsOf(identity: string): StoppedStatus["subjects"] {
  try {
    return { discovery: discoverySubject(identity), tool: toolSubject(identity) };
  } catch {
    return null;
  }
}

function stoppedStatus(toolkit: Toolkit, message?: string): StoppedStatus {
  const served = servedSet(toolkit, "nats").map((e) => ({ name: e.tool.name, served: e.served, reason: e.reason }));
  return { serving: false, identity: toolkit.name, subjects: subjectsOf(toolkit.name), served, ...(message ? { message } : {}) };
}

export function createNatsServe(deps: NatsServeDeps): NatsServe {
  const fallback = deps.defaultToolkit ?? (() => DEMO_TOOLKIT);
  const connector = deps.connector ?? tcpConnector();
  const runner = deps.runner ?? nodeCommandRunner();
  // Built on the first start: compiling the fisk-ai schemas is not free and most backends never serve.
  let validate: FiskValidator | undefined;
  let running: Running | undefined;
  let lastToolkit: Toolkit | undefined;
  let lastMessage: string | undefined;
  const frames = new FrameRing();
  // Start and stop run one at a time, in order.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(op: () => Promise<T>): Promise<T> => {
    const next = queue.then(op, op);
    queue = next.catch(() => undefined);
    return next;
  };

  const status = (): NatsServeStatus =>
    running ? { serving: true, server: running.port.server, ...running.server.status() } : stoppedStatus(lastToolkit ?? fallback(), lastMessage);

  async function start(input: NatsServeStart): Promise<NatsServeStatus> {
    if (running) throw new NatsServeError(409, "already_serving", `already serving agent "${running.server.identity}" over NATS; stop it first`);
    const toolkit = toolkitOf(input.toolkit, fallback);
    const target = deps.nats();
    if ("unavailable" in target) throw new NatsServeError(503, "nats_unavailable", `cannot serve over NATS: ${target.unavailable}`);
    // Loaded on the first start: the packs pull in ajv, which the CLI does not need otherwise.
    validate ??= engineValidator((await import("../../src/core/packs/index.ts")).createValidationEngine());
    let port: NatsPort;
    try {
      port = await connector.connect({ servers: target.url, name: `fisk-ai ${toolkit.name}`, ...(target.auth ? { auth: target.auth } : {}) });
    } catch (err) {
      lastMessage = (err as Error).message;
      throw new NatsServeError(502, "nats_connect_failed", lastMessage);
    }
    const cpuCount = deps.cpuCount ?? availableParallelism();
    let semaphore;
    try {
      semaphore = deps.limit?.join("NATS", input.concurrency, defaultConcurrency(cpuCount));
    } catch (err) {
      await port.close().catch(() => undefined);
      throw err;
    }
    try {
      const server = await startFiskServer({
        port: recordingNatsPort(port, (frame) => frames.push(frame)),
        toolkit,
        clock: systemClock(performance, Date),
        scheduler: systemScheduler(),
        random: (b) => crypto.getRandomValues(b),
        cpuCount,
        ...(semaphore ? { semaphore } : input.concurrency !== undefined ? { concurrency: input.concurrency } : {}),
        ...(input.generation !== undefined ? { generation: input.generation } : {}),
        ...(input.keepaliveMs !== undefined ? { keepaliveMs: input.keepaliveMs } : {}),
        ...(input.callTimeoutMs !== undefined ? { callTimeoutMs: input.callTimeoutMs } : {}),
        version: deps.version ?? "dev",
        validate,
        runner,
        logger: deps.logger,
      });
      running = { server, port };
      // A connection that closes under the agent ends the serving; the status says why.
      port.onStatus((event) => {
        if (event.type !== "closed" || running?.port !== port) return;
        running = undefined;
        deps.limit?.leave("NATS");
        lastMessage = `the NATS connection closed${event.message ? `: ${event.message}` : ""}; start again to serve`;
        void server.stop();
      });
      lastToolkit = toolkit;
      lastMessage = undefined;
      deps.logger.info("serving over NATS", { agent: toolkit.name, tools: server.served.filter((e) => e.served).length });
      return status();
    } catch (err) {
      deps.limit?.leave("NATS");
      await port.close().catch(() => undefined);
      throw new NatsServeError(400, "cannot_serve", (err as Error).message);
    }
  }

  async function stop(): Promise<NatsServeStatus> {
    const current = running;
    if (!current) return status();
    running = undefined;
    deps.limit?.leave("NATS");
    await current.server.stop();
    await current.port.close().catch((err: unknown) => deps.logger.warn("closing the agent's NATS connection failed", { message: (err as Error).message }));
    deps.logger.info("stopped serving over NATS", { agent: current.server.identity });
    return status();
  }

  return { frames, status, start: (input) => serial(() => start(input)), stop: () => serial(stop) };
}
