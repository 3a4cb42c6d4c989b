/**
 * Opening a connection with the SDK client in the era the server's setting asks for: legacy
 * (`initialize` with the chosen version), modern (`server/discover`, 2026-07-28 or nothing) or
 * auto (probe, fall back to `initialize`). The lifecycle answers are kept as received, and a
 * failure is named by its step.
 */
import { Client, type ClientCapabilities, type Implementation } from "@modelcontextprotocol/client";
import { isJsonObject } from "../json/index.ts";
import { clientCapabilities } from "./client-handlers.ts";
import { classifyConnectFailure, McpConnectError } from "./connect-failure.ts";
import type { ConnectOptions, ConnectResult } from "./connection-types.ts";
import { META_SERVER_INFO } from "./envelope.ts";
import { describeProbeAnswer, eraOfVersion, eraReason, LEGACY_VERSIONS, MODERN_VERSION, NEWEST_LEGACY_VERSION } from "./era.ts";
import type { McpTransport } from "./mcp-transport.ts";
import { NotJsonRpcError, RelayError } from "./relay-error.ts";
import { SdkBridge, type BridgeHooks } from "./sdk-bridge.ts";

export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;

/** Relay steps that mean the server cannot be reached; they end a connect attempt at once. */
const FATAL_RELAY_STEPS = new Set(["spawn", "dns", "tcp", "tls", "cors", "http", "not-mcp"]);

/** Versions accepted from a server's initialize answer besides the one asked for. */
const ACCEPTED_LEGACY = [...LEGACY_VERSIONS, "2024-10-07"];

export interface SdkSession {
  readonly client: Client;
  readonly bridge: SdkBridge;
  readonly capabilities: ClientCapabilities;
  readonly info: ConnectResult;
}

export interface SdkCallbacks extends BridgeHooks {
  readonly onError: (error: Error) => void;
  readonly onClose: () => void;
  /** Installs handlers and notification listeners before connecting. */
  readonly install: (client: Client) => void;
}

const UNNAMED: Implementation = { name: "unnamed server", version: "" };

function versions(requested: string): string[] {
  return [requested, ...ACCEPTED_LEGACY.filter((v) => v !== requested), MODERN_VERSION];
}

/**
 * On a pipe, a server that leaves server/discover unanswered is a legacy server that ignores
 * methods it does not know; auto waits this long for it before sending initialize, not the
 * whole connect time.
 */
export const STDIO_PROBE_TIMEOUT_MS = 5_000;

function probeTimeout(transport: McpTransport, setting: string, timeoutMs: number): number {
  return setting === "auto" && transport.channelKind === "stdio" ? Math.min(timeoutMs, STDIO_PROBE_TIMEOUT_MS) : timeoutMs;
}

export async function openSdkSession(transport: McpTransport, options: ConnectOptions, callbacks: SdkCallbacks): Promise<SdkSession> {
  const setting = options.era ?? "legacy";
  const requested = options.protocolVersion !== undefined && eraOfVersion(options.protocolVersion) === "legacy" ? options.protocolVersion : NEWEST_LEGACY_VERSION;
  const capabilities = clientCapabilities(options.capabilities);
  const timeoutMs = options.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const client = new Client(options.clientInfo, {
    capabilities,
    supportedProtocolVersions: versions(requested),
    versionNegotiation: { mode: setting === "auto" ? "auto" : setting === "modern" ? { pin: MODERN_VERSION } : "legacy", probe: { timeoutMs: probeTimeout(transport, setting, timeoutMs) } },
    // The console answers input_required itself, round by round, where the page can show it.
    inputRequired: { autoFulfill: false },
  });
  callbacks.install(client);
  let failConnect: ((error: Error) => void) | undefined;
  const failed = new Promise<never>((_, reject) => (failConnect = reject));
  failed.catch(() => {});
  // What the server said that is not JSON-RPC, if anything: the likeliest reason it never answered.
  let notJsonRpc: NotJsonRpcError | undefined;
  let connected = false;
  const bridge = new SdkBridge(transport, {
    take: callbacks.take,
    // Seen from the transport itself, so what goes wrong while the SDK probes counts too.
    transportError: (error) => {
      // A server that refuses the probe over HTTP may still speak initialize: that refusal is its answer.
      const probeRefused = bridge.probing && error instanceof RelayError && (error.step === "http" || error.step === "not-mcp");
      if (error instanceof RelayError && FATAL_RELAY_STEPS.has(error.step) && !probeRefused) failConnect?.(error);
      if (error instanceof NotJsonRpcError && !connected) notJsonRpc ??= error;
    },
  });
  client.onerror = (error) => callbacks.onError(error);
  client.onclose = () => callbacks.onClose();
  try {
    await Promise.race([client.connect(bridge, { timeout: timeoutMs }), failed]);
  } catch (error) {
    const closedReason = (transport as { closedReason?: unknown }).closedReason;
    await client.close().catch(() => {});
    const raw = bridge.lastLifecycle === "server/discover" && bridge.probeAnswer ? JSON.stringify(bridge.probeAnswer) : bridge.initializeAnswer !== undefined ? JSON.stringify(bridge.initializeAnswer) : undefined;
    throw new McpConnectError(
      classifyConnectFailure(error, {
        ...(bridge.lastLifecycle ? { step: bridge.lastLifecycle } : {}),
        ...(typeof closedReason === "string" ? { closedReason } : {}),
        ...(notJsonRpc ? { notJsonRpc: notJsonRpc.message } : {}),
        ...(raw !== undefined ? { raw } : {}),
        ...(bridge.probeAnswer ? { probe: `server/discover ${describeProbeAnswer(bridge.probeAnswer)}` } : {}),
      }),
    );
  } finally {
    failConnect = undefined;
  }
  connected = true;
  const negotiatedVersion = client.getNegotiatedProtocolVersion() ?? requested;
  const era = client.getProtocolEra() ?? eraOfVersion(negotiatedVersion);
  const rawResult = era === "modern" ? bridge.discoverResult : bridge.initializeAnswer;
  const serverInfo = client.getServerVersion() ?? serverInfoOf(rawResult);
  const info: ConnectResult = {
    serverInfo: serverInfo ?? UNNAMED,
    serverInfoGiven: serverInfo !== undefined,
    capabilities: client.getServerCapabilities() ?? {},
    instructions: client.getInstructions(),
    requestedVersion: era === "modern" ? MODERN_VERSION : requested,
    negotiatedVersion,
    era,
    eraChoice: { era, setting, reason: eraReason(setting, era, setting === "legacy" ? undefined : (bridge.probeAnswer ?? { kind: "no-answer" })) },
    raw: isJsonObject(rawResult) ? rawResult : {},
  };
  return { client, bridge, capabilities, info };
}

function serverInfoOf(result: unknown): Implementation | undefined {
  const meta = isJsonObject(result) && isJsonObject(result._meta) ? result._meta[META_SERVER_INFO] : undefined;
  return isJsonObject(meta) && typeof meta.name === "string" && typeof meta.version === "string" ? { name: meta.name, version: meta.version } : undefined;
}
