/**
 * The backend's A2A surface: at most one toolkit served as an A2A agent over HTTP at a time,
 * started and stopped through the API, its traffic kept in a frame ring for the console.
 */
import type { Logger } from "../../src/core/env/environment.ts";
import type { A2aConfirm } from "../../src/core/serving/a2a/index.ts";
import { DEMO_TOOLKIT } from "../../src/core/serving/demo-toolkit.ts";
import { HttpError } from "../http/errors.ts";
import type { A2aServing } from "./a2a-engine.ts";
import { parseA2aStartOptions } from "./a2a-start-options.ts";
import { FrameRing } from "./frame-ring.ts";
import { listenError, type ServedToolStatus } from "./serve-manager.ts";
import type { SharedLimit } from "./shared-limit.ts";

export type A2aServeStatus =
  | { readonly running: false }
  | {
      readonly running: true;
      readonly port: number;
      readonly baseUrl: string;
      readonly cardUrl: string;
      readonly jsonRpcUrl: string;
      readonly restUrl: string;
      readonly toolkit: string;
      readonly confirm: A2aConfirm;
      readonly concurrency: number;
      readonly timeoutMs?: number;
      readonly defaultSkill?: string;
      /** Epoch ms. */
      readonly startedAt: number;
      readonly tasks: { readonly running: number; readonly kept: number };
      readonly tools: readonly ServedToolStatus[];
    };

export interface A2aServeManager {
  readonly frames: FrameRing;
  status(): A2aServeStatus;
  /** Throws HttpError: 400 for bad options, 409 when already serving, the port is taken or the limit is shared. */
  start(body: unknown): Promise<{ readonly status: A2aServeStatus; readonly issues: readonly string[] }>;
  stop(): Promise<A2aServeStatus>;
  close(): Promise<void>;
}

export interface A2aServeManagerOptions {
  readonly logger: Logger;
  readonly limit: SharedLimit;
  readonly now?: () => number;
}

const BUSY = "the A2A endpoint is starting or stopping; try again";

export function createA2aServeManager(options: A2aServeManagerOptions): A2aServeManager {
  const { logger, limit } = options;
  const now = options.now ?? Date.now;
  const frames = new FrameRing({ now });
  let running: { serving: A2aServing; startedAt: number; timeoutMs?: number } | undefined;
  let busy = false;

  function status(): A2aServeStatus {
    if (!running) return { running: false };
    const { serving, startedAt, timeoutMs } = running;
    const { agent } = serving;
    return {
      running: true,
      port: serving.port,
      baseUrl: serving.baseUrl,
      cardUrl: serving.cardUrl,
      jsonRpcUrl: serving.jsonRpcUrl,
      restUrl: serving.restUrl,
      toolkit: agent.toolkit.name,
      confirm: agent.confirm,
      concurrency: agent.semaphore.limit,
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      ...(agent.defaultSkill ? { defaultSkill: agent.defaultSkill.tool.name } : {}),
      startedAt,
      tasks: { running: agent.executor.runningCount, kept: agent.taskCount() },
      tools: agent.entries.map((entry) => ({ name: entry.tool.name, served: entry.served, reason: entry.reason })),
    };
  }

  async function stopServing(): Promise<void> {
    const current = running;
    running = undefined;
    if (!current) return;
    try {
      await current.serving.close();
    } finally {
      limit.leave("A2A");
    }
    logger.info("stopped serving over A2A", { url: current.serving.baseUrl });
  }

  return {
    frames,
    status,
    async start(body) {
      const { options: start, issues } = parseA2aStartOptions(body);
      if (running) throw new HttpError(409, "already_serving", `already serving at ${running.serving.cardUrl}; stop it first`);
      if (busy) throw new HttpError(409, "busy", BUSY);
      busy = true;
      try {
        // Loaded on first use: the A2A SDK, Express and ajv stay out of a plain `patchbay start`.
        const { startA2aServing } = await import("./a2a-engine.ts");
        const { DEFAULT_A2A_CONCURRENCY } = await import("../../src/core/serving/a2a/a2a-agent.ts");
        const semaphore = limit.join("A2A", start.concurrency, DEFAULT_A2A_CONCURRENCY);
        let serving: A2aServing;
        try {
          serving = await startA2aServing({
            toolkit: start.toolkit ?? DEMO_TOOLKIT,
            port: start.port,
            logger,
            semaphore,
            onFrame: (frame) => frames.push(frame),
            ...(start.confirm ? { confirm: start.confirm } : {}),
            ...(start.timeoutMs !== undefined ? { timeoutMs: start.timeoutMs } : {}),
            ...(start.defaultSkill !== undefined ? { defaultSkill: start.defaultSkill } : {}),
          });
        } catch (error) {
          limit.leave("A2A");
          if ((error as NodeJS.ErrnoException).code) throw listenError(error, start.port);
          throw new HttpError(400, "cannot_serve", `cannot serve over A2A: ${(error as Error).message}`);
        }
        for (const issue of issues) logger.warn(`toolkit ${issue}`);
        running = { serving, startedAt: now(), ...(start.timeoutMs !== undefined ? { timeoutMs: start.timeoutMs } : {}) };
        logger.info("serving over A2A", { card: serving.cardUrl, toolkit: serving.agent.toolkit.name });
        return { status: status(), issues };
      } finally {
        busy = false;
      }
    },
    async stop() {
      if (busy) throw new HttpError(409, "busy", BUSY);
      busy = true;
      try {
        await stopServing();
      } finally {
        busy = false;
      }
      return status();
    },
    close: stopServing,
  };
}
