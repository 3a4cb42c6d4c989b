/**
 * One running backend: a fresh token, the workspace store and the HTTP app, wired together.
 * The CLI's `start` uses it, and so can tests that need a real server in-process.
 */
import type { BackendStatus, NatsServiceStatus } from "../src/core/backend/backend-client.ts";
import type { Logger } from "../src/core/env/environment.ts";
import { fileDocumentStore } from "../src/core/persist/node/file-store.ts";
import { DEFAULT_MAX_BODY } from "./config.ts";
import { apiRoutes } from "./http/api-routes.ts";
import { startHttpServer, type HttpApp } from "./http/app.ts";
import { hostWithPort, isWildcardHost } from "./http/origin-policy.ts";
import { createToken } from "./http/token.ts";
import { createRelaySessions } from "./mcp/relay-sessions.ts";
import { createA2aServeManager } from "./serving/a2a-serve-manager.ts";
import { createServeManager, type McpServeManager } from "./serving/serve-manager.ts";
import { SharedLimit } from "./serving/shared-limit.ts";
import { createNatsServe, type NatsTarget } from "./serving/nats-serve.ts";
import { VERSION } from "./version.ts";
import { HOOK_PREFIX, PushReceivers } from "./relay/push-receivers.ts";
import { RunManager } from "./harness/run-manager.ts";
import { ConformanceRunner } from "./harness/conformance-runner.ts";
import { processToolPaths } from "./harness/conformance-tools.ts";
import { nodeExecutors } from "./harness/node-executors.ts";

export interface BackendOptions {
  readonly workspace: string;
  readonly distDir: string;
  readonly logger: Logger;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Default 0 (a free port). */
  readonly port?: number;
  readonly maxBodyBytes?: number;
  readonly allowOrigins?: readonly string[];
  readonly exposed?: boolean;
  readonly interfaceAddresses?: readonly string[];
  readonly nats?: NatsServiceStatus;
  /**
   * The external NATS URL as given, credentials included, for the backend's own connections
   * (serving over NATS). Never reported: /api/status shows the redacted `nats.url`.
   */
  readonly natsConnectUrl?: string;
  /** Only for tests that need a known token; normally a fresh random one. */
  readonly token?: string;
  /** How long a served call waits for the operator's approval; default 2 minutes, tests shorten it. */
  readonly approvalTimeoutMs?: number;
}

export interface Backend {
  readonly token: string;
  readonly port: number;
  /** e.g. http://127.0.0.1:7420 (no trailing slash). */
  readonly origin: string;
  /** The hand-off URL printed for the user: `<origin>/?token=<token>`. */
  readonly launchUrl: string;
  readonly app: HttpApp;
  /** The MCP serving surface (/api/serve/mcp). */
  readonly serve: McpServeManager;
  /** Update what /api/status reports about NATS. */
  setNats(status: NatsServiceStatus): void;
  close(): Promise<void>;
}

/** Start the backend; rejects with the listen error (EADDRINUSE, EACCES, …). */
export async function startBackend(options: BackendOptions): Promise<Backend> {
  const token = options.token ?? createToken();
  const host = options.host ?? "127.0.0.1";
  let nats: NatsServiceStatus = options.nats ?? { mode: "unavailable", message: "NATS is not configured" };
  const status = (): BackendStatus => ({ version: VERSION, workspace: options.workspace, nats });
  const mcp = createRelaySessions({ logger: options.logger });
  // One limit on tool runs across the surfaces served from this console.
  const limit = new SharedLimit();
  const natsTarget = (): NatsTarget => {
    if (nats.mode === "unavailable" || !nats.url) return { unavailable: nats.message ?? "NATS is not configured" };
    return { url: nats.mode === "external" && options.natsConnectUrl ? options.natsConnectUrl : nats.url };
  };
  const serve = createServeManager({ logger: options.logger, limit, nats: natsTarget, ...(options.approvalTimeoutMs !== undefined ? { approvalTimeoutMs: options.approvalTimeoutMs } : {}) });
  const a2aServe = createA2aServeManager({ logger: options.logger, limit });
  const natsServe = createNatsServe({ logger: options.logger, limit, version: VERSION, nats: natsTarget });
  const push = new PushReceivers();
  const harness = new RunManager({ executors: () => nodeExecutors(), newId: () => crypto.randomUUID() });
  const conformance = new ConformanceRunner({ paths: processToolPaths(), logger: options.logger, newId: () => crypto.randomUUID() });
  const app = await startHttpServer({
    token,
    logger: options.logger,
    distDir: options.distDir,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY,
    host,
    port: options.port ?? 0,
    exposed: options.exposed ?? false,
    allowOrigins: options.allowOrigins ?? [],
    interfaceAddresses: options.interfaceAddresses ?? [],
    routes: apiRoutes({ status, documents: fileDocumentStore({ root: options.workspace }), mcp, serve, a2aServe, natsServe, push, harness, conformance }),
    hooks: { prefix: HOOK_PREFIX, handle: (req, res, pathname) => push.handle(req, res, pathname) },
  });
  const origin = `http://${hostWithPort(isWildcardHost(host) ? "127.0.0.1" : host, app.port)}`;
  return {
    token,
    port: app.port,
    origin,
    launchUrl: `${origin}/?token=${token}`,
    app,
    serve,
    setNats(next) {
      nats = next;
    },
    // Relay sessions first: their children are stopped and their streams get `closed`.
    async close() {
      await conformance.close();
      harness.close();
      await serve.close();
      await a2aServe.close();
      await mcp.closeAll();
      await natsServe.stop();
      await app.close();
    },
  };
}
