/**
 * One served agent over Streamable HTTP, legacy sessions and modern requests alike: the shared
 * serving context, its endpoint and the listener. Loaded on demand (it pulls in the MCP SDK and
 * ajv), so `patchbay start` stays light.
 */
import { randomFillSync, randomUUID } from "node:crypto";
import type { Logger } from "../../src/core/env/environment.ts";
import { systemScheduler } from "../../src/core/env/scheduler.ts";
import type { FiskBridge } from "../../src/core/serving/bridge/fisk-bridge.ts";
import type { ConfirmMode } from "../../src/core/serving/confirm-gate.ts";
import { McpHttpEndpoint } from "../../src/core/serving/mcp/http-endpoint.ts";
import type { OperatorDecider } from "../../src/core/serving/mcp/operator-approvals.ts";
import type { FrameEvent } from "../../src/core/serving/mcp/recording-transport.ts";
import { createServingContext, type McpServingContext } from "../../src/core/serving/mcp/serving-context.ts";
import { nodeCommandRunner } from "../../src/core/serving/node/command-runner.ts";
import type { Semaphore } from "../../src/core/serving/semaphore.ts";
import type { Toolkit } from "../../src/core/serving/toolkit/toolkit-types.ts";
import { VERSION } from "../version.ts";
import { startMcpListener } from "./mcp-listener.ts";

export interface McpServingSettings {
  readonly toolkit: Toolkit;
  readonly port: number;
  readonly logger: Logger;
  readonly confirmMode?: ConfirmMode;
  readonly concurrency?: number;
  /** A limit shared with the other surfaces; `concurrency` is then ignored. */
  readonly semaphore?: Semaphore;
  readonly timeoutMs?: number;
  readonly fixtures?: boolean;
  readonly maxSessions?: number;
  readonly idleMs?: number;
  readonly maxBodyBytes?: number;
  readonly onFrame?: (frame: FrameEvent) => void;
  /** Who decides in confirm mode `operator`. */
  readonly approvals?: OperatorDecider;
  /** fisk-ai agents' tools served too. */
  readonly bridge?: FiskBridge;
}

export interface McpServing {
  readonly port: number;
  readonly url: string;
  readonly context: McpServingContext;
  sessionCount(): number;
  /** Ends every session, then stops listening. */
  close(): Promise<void>;
}

/** Starts serving; rejects with the listen error (EADDRINUSE, …) and leaves nothing running. */
export async function startMcpServing(settings: McpServingSettings): Promise<McpServing> {
  const context = createServingContext({
    toolkit: settings.toolkit,
    scheduler: systemScheduler(),
    logger: settings.logger,
    runner: nodeCommandRunner(),
    version: VERSION,
    randomBytes: (bytes) => randomFillSync(bytes),
    wallNow: Date.now,
    ...(settings.confirmMode ? { confirmMode: settings.confirmMode } : {}),
    ...(settings.concurrency !== undefined ? { concurrency: settings.concurrency } : {}),
    ...(settings.semaphore ? { semaphore: settings.semaphore } : {}),
    ...(settings.timeoutMs !== undefined ? { timeoutMs: settings.timeoutMs } : {}),
    ...(settings.fixtures !== undefined ? { fixtures: settings.fixtures } : {}),
    ...(settings.approvals ? { approvals: settings.approvals } : {}),
    ...(settings.bridge ? { bridge: settings.bridge } : {}),
  });
  const endpoint = new McpHttpEndpoint({
    context,
    newSessionId: () => randomUUID(),
    ...(settings.maxSessions !== undefined ? { maxSessions: settings.maxSessions } : {}),
    ...(settings.idleMs !== undefined ? { idleMs: settings.idleMs } : {}),
    ...(settings.onFrame ? { onFrame: settings.onFrame } : {}),
  });
  const listener = await startMcpListener({
    handle: (request, body) => endpoint.handle(request, body),
    port: settings.port,
    logger: settings.logger,
    ...(settings.maxBodyBytes !== undefined ? { maxBodyBytes: settings.maxBodyBytes } : {}),
    ...(settings.onFrame ? { onFrame: settings.onFrame } : {}),
  });
  return {
    port: listener.port,
    url: listener.url,
    context,
    sessionCount: () => endpoint.size,
    async close() {
      await endpoint.closeAll();
      await listener.close();
    },
  };
}
