/** `patchbay start`: the backend, its workspace and (unless told otherwise) a private nats-server. */
import type { NatsServiceStatus } from "../../src/core/backend/backend-client.ts";
import type { Logger } from "../../src/core/env/environment.ts";
import { startBackend, type Backend } from "../backend.ts";
import type { Config, NatsConfig } from "../config.ts";
import { hostWithPort } from "../http/origin-policy.ts";
import { NatsStartError, startNatsServer, type ManagedNats, type NatsServerOptions } from "../nats/managed-nats.ts";
import { redactUrl } from "../nats/nats-urls.ts";
import { watchNats, type NatsWatch } from "../nats/nats-watch.ts";

export interface StartDeps {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly logger: Logger;
  /** Stops the backend when aborted (SIGINT/SIGTERM in the real CLI). */
  readonly signal: AbortSignal;
  readonly interfaceAddresses: () => string[];
  /** Overrides for the managed nats-server (tests point this at another binary). */
  readonly nats?: NatsServerOptions;
}

function initialNats(nats: NatsConfig): NatsServiceStatus {
  if (nats.mode === "off") return { mode: "unavailable", message: "NATS is disabled (--no-nats)" };
  if (nats.mode === "external") {
    const url = redactUrl(nats.url);
    if (nats.wsUrl !== undefined) return { mode: "external", url, wsUrl: redactUrl(nats.wsUrl) };
    return { mode: "external", url, message: "no WebSocket URL known for this server; set NATS_WS_URL so the browser can connect" };
  }
  return { mode: "unavailable", message: "nats-server is starting" };
}

function listenFailure(err: unknown, config: Config): string {
  const code = (err as NodeJS.ErrnoException).code;
  const where = hostWithPort(config.host, config.port);
  if (code === "EADDRINUSE") return `patchbay: port ${config.port} is already in use on ${config.host}; choose another with --port <n>`;
  if (code === "EACCES") return `patchbay: permission denied to listen on ${where}; choose a port above 1023 with --port <n>`;
  if (code === "EADDRNOTAVAIL") return `patchbay: ${config.host} is not an address of this machine; check --host`;
  return `patchbay: cannot listen on ${where}: ${(err as Error).message}`;
}

const stopped = (signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });

async function startManagedNats(backend: Backend, deps: StartDeps): Promise<ManagedNats | undefined> {
  try {
    // Only pages served by this backend (or an --allow-origin) may open the WebSocket port.
    const result = await startNatsServer({ allowedOrigins: [...backend.app.policy.origins], ...deps.nats });
    if (!result.ok) {
      deps.stderr(`patchbay: ${result.message}; continuing without NATS\n`);
      backend.setNats({ mode: "unavailable", message: result.message });
      return undefined;
    }
    const { server } = result;
    deps.logger.info("nats-server started", { url: server.url, wsUrl: server.wsUrl, pid: server.pid });
    backend.setNats({ mode: "managed", url: server.url, wsUrl: server.wsUrl });
    return server;
  } catch (err) {
    const message = (err instanceof NatsStartError ? err.message : String(err)).split("\n")[0] ?? "";
    deps.stderr(`patchbay: could not start nats-server (${message}); continuing without NATS\n`);
    backend.setNats({ mode: "unavailable", message: `nats-server did not start: ${message}` });
    return undefined;
  }
}

/** Run until the signal aborts; resolves with the process exit code. */
export async function runStart(config: Config, deps: StartDeps): Promise<number> {
  const { logger } = deps;
  let backend: Backend;
  try {
    backend = await startBackend({
      workspace: config.workspace,
      distDir: config.distDir,
      logger,
      host: config.host,
      port: config.port,
      maxBodyBytes: config.maxBodyBytes,
      allowOrigins: config.allowOrigins,
      exposed: config.dangerouslyExpose,
      interfaceAddresses: config.dangerouslyExpose ? deps.interfaceAddresses() : [],
      nats: initialNats(config.nats),
      ...(config.nats.mode === "external" ? { natsConnectUrl: config.nats.url } : {}),
    });
  } catch (err) {
    deps.stderr(`${listenFailure(err, config)}\n`);
    return 1;
  }

  const managed = config.nats.mode === "managed" ? await startManagedNats(backend, deps) : undefined;
  let watch: NatsWatch | undefined;
  if (config.nats.mode === "external") {
    // A cluster's nodes may be given (comma-separated): say which one the backend is on, and keep saying it.
    const base = initialNats(config.nats);
    watch = watchNats(config.nats.url, {
      logger,
      say: (line) => deps.stdout(`${line}\n`),
      complain: (line) => deps.stderr(`${line}\n`),
      onNode: (node) => backend.setNats(node ? { ...base, node } : base),
    });
  }
  if (config.dangerouslyExpose) logger.warn("listening beyond loopback (--dangerously-expose)", { host: config.host });
  logger.info("backend listening", { url: `${backend.origin}/`, workspace: config.workspace, nats: config.nats.mode });
  // The one place the token is shown: stdout, for the user, never through the logger.
  if (!deps.signal.aborted) deps.stdout(`Patchbay is running at ${backend.launchUrl}\n`);

  await stopped(deps.signal);
  logger.info("stopping");
  await watch?.close();
  await backend.close();
  await managed?.stop();
  logger.info("stopped");
  return 0;
}
