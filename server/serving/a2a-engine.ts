/**
 * One toolkit served as an A2A agent over HTTP: the listener first (the card needs its URL),
 * then the agent on it. Loaded on demand, so `patchbay start` stays light.
 */
import { randomUUID } from "node:crypto";
import type { Logger } from "../../src/core/env/environment.ts";
import { systemScheduler } from "../../src/core/env/scheduler.ts";
import { createA2aAgent, type A2aAgent, type A2aConfirm } from "../../src/core/serving/a2a/index.ts";
import { nodeCommandRunner } from "../../src/core/serving/node/command-runner.ts";
import type { CommandRunner } from "../../src/core/serving/run-types.ts";
import type { Semaphore } from "../../src/core/serving/semaphore.ts";
import type { Toolkit } from "../../src/core/serving/toolkit/toolkit-types.ts";
import { VERSION } from "../version.ts";
import { startA2aListener } from "./a2a-listener.ts";
import { A2A_CARD_PATHS, A2A_JSONRPC_PATH, A2A_REST_PATH, type A2aFrameSink } from "./a2a-routes.ts";

export interface A2aServingSettings {
  readonly toolkit: Toolkit;
  readonly port: number;
  readonly logger: Logger;
  readonly confirm?: A2aConfirm;
  readonly concurrency?: number;
  /** A limit shared with the other surfaces; `concurrency` is then ignored. */
  readonly semaphore?: Semaphore;
  readonly timeoutMs?: number;
  readonly defaultSkill?: string | false;
  /** The behaviours the A2A TCK documents, with its TCK_STREAMING_TIMEOUT in seconds. */
  readonly tck?: { readonly streamingTimeoutS: number };
  readonly holdMs?: number;
  readonly approvalTimeoutMs?: number;
  readonly maxBodyBytes?: number;
  readonly onFrame?: A2aFrameSink;
  /** Default: the Node command runner (argv, no shell, scrubbed environment). */
  readonly runner?: CommandRunner;
  /** Finished tasks kept for tasks/get and tasks/list; default 1,000. */
  readonly maxFinishedTasks?: number;
}

export interface A2aServing {
  readonly port: number;
  readonly baseUrl: string;
  readonly cardUrl: string;
  readonly jsonRpcUrl: string;
  readonly restUrl: string;
  readonly agent: A2aAgent;
  /** Ends every task still running (canceled), then stops listening. */
  close(): Promise<void>;
}

/** Starts serving; rejects with the listen error (EADDRINUSE, …) or a bad option, and leaves nothing running. */
export async function startA2aServing(settings: A2aServingSettings): Promise<A2aServing> {
  const listener = await startA2aListener({
    port: settings.port,
    logger: settings.logger,
    ...(settings.maxBodyBytes !== undefined ? { maxBodyBytes: settings.maxBodyBytes } : {}),
    ...(settings.onFrame ? { onFrame: settings.onFrame } : {}),
  });
  const jsonRpcUrl = `${listener.baseUrl}${A2A_JSONRPC_PATH}`;
  const restUrl = `${listener.baseUrl}${A2A_REST_PATH}`;
  let agent: A2aAgent;
  try {
    agent = createA2aAgent({
      toolkit: settings.toolkit,
      jsonRpcUrl,
      restUrl,
      version: VERSION,
      scheduler: systemScheduler(),
      logger: settings.logger,
      runner: settings.runner ?? nodeCommandRunner(),
      newId: () => randomUUID(),
      ...(settings.confirm ? { confirm: settings.confirm } : {}),
      ...(settings.concurrency !== undefined ? { concurrency: settings.concurrency } : {}),
      ...(settings.semaphore ? { semaphore: settings.semaphore } : {}),
      ...(settings.timeoutMs !== undefined ? { timeoutMs: settings.timeoutMs } : {}),
      ...(settings.defaultSkill !== undefined ? { defaultSkill: settings.defaultSkill } : {}),
      ...(settings.tck ? { tck: settings.tck } : {}),
      ...(settings.holdMs !== undefined ? { holdMs: settings.holdMs } : {}),
      ...(settings.approvalTimeoutMs !== undefined ? { approvalTimeoutMs: settings.approvalTimeoutMs } : {}),
      ...(settings.maxFinishedTasks !== undefined ? { maxFinishedTasks: settings.maxFinishedTasks } : {}),
    });
  } catch (error) {
    await listener.close();
    throw error;
  }
  listener.serve(agent);
  return {
    port: listener.port,
    baseUrl: listener.baseUrl,
    cardUrl: `${listener.baseUrl}${A2A_CARD_PATHS[0]}`,
    jsonRpcUrl,
    restUrl,
    agent,
    async close() {
      await agent.close();
      await listener.close();
    },
  };
}
