/**
 * The backend's MCP serving surface: at most one served agent at a time, started and stopped
 * through the API, with its traffic kept in a frame ring for the console.
 */
import { randomUUID } from "node:crypto";
import type { Logger } from "../../src/core/env/environment.ts";
import { systemScheduler } from "../../src/core/env/scheduler.ts";
import type { ConfirmMode } from "../../src/core/serving/confirm-gate.ts";
import { DEMO_TOOLKIT } from "../../src/core/serving/demo-toolkit.ts";
import { OperatorApprovals } from "../../src/core/serving/mcp/operator-approvals.ts";
import { HttpError } from "../http/errors.ts";
import { FrameRing } from "./frame-ring.ts";
import type { McpServing } from "./mcp-engine.ts";
import type { SharedLimit } from "./shared-limit.ts";
import { parseStartOptions } from "./start-options.ts";
import type { NatsConnector } from "../../src/core/nats/port.ts";
import type { FiskBridge } from "../../src/core/serving/bridge/fisk-bridge.ts";
import type { NatsTarget } from "./nats-serve.ts";

function bridgeStatus(bridge: FiskBridge): BridgeStatus {
  const plan = bridge.plan;
  return { identities: bridge.identities, tools: plan.tools.map((t) => ({ name: t.name, agent: t.host, remoteName: t.remoteName })), warnings: plan.warnings };
}

export interface ServedToolStatus {
  readonly name: string;
  readonly served: boolean;
  readonly reason: string;
}

export type McpServeStatus =
  | { readonly running: false }
  | {
      readonly running: true;
      readonly url: string;
      readonly port: number;
      readonly toolkit: string;
      readonly confirmMode: ConfirmMode;
      readonly concurrency: number;
      readonly timeoutMs?: number;
      readonly fixtures: boolean;
      /** Legacy-era sessions open; modern clients keep none. */
      readonly sessions: number;
      /** Tool calls running as tasks, and the tasks kept (running ones and the last finished). */
      readonly tasks: { readonly running: number; readonly kept: number };
      /** Epoch ms. */
      readonly startedAt: number;
      /** Every toolkit tool, with whether MCP serves it and why. */
      readonly tools: readonly ServedToolStatus[];
      /** The conformance fixture tools served alongside. */
      readonly fixtureTools: readonly string[];
      /** fisk-ai agents bridged, with their tools as MCP names them (present only when bridging). */
      readonly bridge?: BridgeStatus;
    };

export interface BridgeStatus {
  readonly identities: readonly string[];
  readonly tools: readonly { readonly name: string; readonly agent: string; readonly remoteName: string }[];
  readonly warnings: readonly string[];
}

export interface McpServeManager {
  readonly frames: FrameRing;
  /** Calls waiting for the operator (confirm mode `operator`); stopping dismisses them. */
  readonly approvals: OperatorApprovals;
  status(): McpServeStatus;
  /** Throws HttpError: 400 for bad options, 409 when already serving or the port is taken. */
  start(body: unknown): Promise<{ readonly status: McpServeStatus; readonly issues: readonly string[] }>;
  stop(): Promise<McpServeStatus>;
  close(): Promise<void>;
}

export interface ServeManagerOptions {
  readonly logger: Logger;
  /** The concurrency limit shared with the other served surfaces; absent, MCP keeps its own. */
  readonly limit?: SharedLimit;
  readonly now?: () => number;
  /** Test hooks for the sessions. */
  readonly maxSessions?: number;
  readonly idleMs?: number;
  readonly maxBodyBytes?: number;
  /** How long a call waits for the operator; default 2 minutes, tests shorten it. */
  readonly approvalTimeoutMs?: number;
  /** The backend's NATS server, for bridging fisk-ai agents. */
  readonly nats?: () => NatsTarget;
  readonly connector?: NatsConnector;
}

/** Time for dismissed calls to answer before their sessions close. */
const DISMISS_GRACE_MS = 50;

export function listenError(error: unknown, port: number): HttpError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EADDRINUSE") return new HttpError(409, "port_in_use", `port ${port} is already in use on 127.0.0.1; choose another port (0 picks a free one)`);
  if (code === "EACCES") return new HttpError(409, "port_denied", `permission denied to listen on port ${port}; choose a port above 1023`);
  return new HttpError(500, "listen_failed", `could not listen on port ${port}: ${(error as Error).message}`);
}

export function createServeManager(options: ServeManagerOptions): McpServeManager {
  const { logger } = options;
  const now = options.now ?? Date.now;
  const frames = new FrameRing({ now });
  const approvals = new OperatorApprovals({
    scheduler: systemScheduler(),
    now,
    newId: randomUUID,
    ...(options.approvalTimeoutMs !== undefined ? { timeoutMs: options.approvalTimeoutMs } : {}),
  });
  let running: { serving: McpServing; startedAt: number; bridge?: { bridge: FiskBridge; close(): Promise<void> } } | undefined;
  let busy = false;

  function status(): McpServeStatus {
    if (!running) return { running: false };
    const { serving, startedAt } = running;
    const ctx = serving.context;
    return {
      running: true,
      url: serving.url,
      port: serving.port,
      toolkit: ctx.toolkit.name,
      confirmMode: ctx.confirmMode,
      concurrency: ctx.semaphore.limit,
      ...(ctx.timeoutMs !== undefined ? { timeoutMs: ctx.timeoutMs } : {}),
      fixtures: ctx.fixtures,
      sessions: serving.sessionCount(),
      tasks: { running: ctx.tasks.live, kept: ctx.tasks.size },
      startedAt,
      tools: ctx.entries.map((entry) => ({ name: entry.tool.name, served: entry.served, reason: entry.reason })),
      fixtureTools: ctx.fixtureTools.map((fixture) => fixture.tool.name),
      ...(running.bridge ? { bridge: bridgeStatus(running.bridge.bridge) } : {}),
    };
  }

  async function stopServing(): Promise<void> {
    const current = running;
    running = undefined;
    const dismissed = approvals.dismissAll();
    if (!current) return;
    // The dismissed calls' refusals go out before their sessions close.
    if (dismissed > 0) await new Promise<void>((resolve) => setTimeout(resolve, DISMISS_GRACE_MS));
    try {
      await current.serving.close();
    } finally {
      await current.bridge?.close();
      options.limit?.leave("MCP");
    }
    logger.info("stopped serving over MCP", { url: current.serving.url });
  }

  return {
    frames,
    approvals,
    status,
    async start(body) {
      const { options: start, issues } = parseStartOptions(body);
      if (running) throw new HttpError(409, "already_serving", `already serving at ${running.serving.url}; stop it first`);
      if (busy) throw new HttpError(409, "busy", "the MCP endpoint is starting or stopping; try again");
      busy = true;
      try {
        // Loaded on first use: the SDK and ajv stay out of a plain `patchbay start`.
        const { startMcpServing } = await import("./mcp-engine.ts");
        const { DEFAULT_MCP_CONCURRENCY } = await import("../../src/core/serving/mcp/serving-context.ts");
        const toolkit = start.toolkit ?? DEMO_TOOLKIT;
        const bridged = start.bridge
          ? await (await import("./bridge-open.ts")).bridgeForWorkbench({ target: options.nats?.(), config: start.bridge, toolkit, logger, ...(options.connector ? { connector: options.connector } : {}) })
          : undefined;
        const semaphore = options.limit?.join("MCP", start.concurrency, DEFAULT_MCP_CONCURRENCY);
        for (const issue of issues) logger.warn(`toolkit ${issue}`);
        const serving = await startMcpServing({
          toolkit,
          ...(bridged ? { bridge: bridged.bridge } : {}),
          port: start.port,
          logger,
          onFrame: (frame) => frames.push(frame),
          approvals,
          ...(start.confirmMode ? { confirmMode: start.confirmMode } : {}),
          ...(semaphore ? { semaphore } : start.concurrency !== undefined ? { concurrency: start.concurrency } : {}),
          ...(start.timeoutMs !== undefined ? { timeoutMs: start.timeoutMs } : {}),
          ...(start.fixtures !== undefined ? { fixtures: start.fixtures } : {}),
          ...(options.maxSessions !== undefined ? { maxSessions: options.maxSessions } : {}),
          ...(options.idleMs !== undefined ? { idleMs: options.idleMs } : {}),
          ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
        }).catch(async (error: unknown) => {
          options.limit?.leave("MCP");
          await bridged?.close();
          throw listenError(error, start.port);
        });
        running = { serving, startedAt: now(), ...(bridged ? { bridge: bridged } : {}) };
        logger.info("serving over MCP", { url: serving.url, toolkit: serving.context.toolkit.name });
        return { status: status(), issues };
      } finally {
        busy = false;
      }
    },
    async stop() {
      if (busy) throw new HttpError(409, "busy", "the MCP endpoint is starting or stopping; try again");
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
