/**
 * A real A2A agent on @a2a-js/sdk 1.3: v1.0 JSON-RPC and HTTP+JSON, and (unless asked for 1.0
 * only) v0.3 on both through the SDK's legacyCompat layer, streaming, push notifications and a
 * bearer-gated extended card. A recording front door sits before the SDK's Express app.
 */
import { createRequire } from "node:module";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { AgentCard } from "@a2a-js/sdk";
import { createLegacyAwarePushNotificationSender } from "@a2a-js/sdk/compat/v0_3/server";
import { legacyAgentCardRouter } from "@a2a-js/sdk/compat/v0_3/server/express";
import {
  DefaultPushNotificationSender,
  DefaultRequestHandler,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
  UnauthenticatedUser,
  type ServerCallContext,
  type User,
} from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, restHandler } from "@a2a-js/sdk/server/express";
import { startFrontDoor, type OwnAnswer } from "./front-door.ts";
import { closeServer, listenLocal, RequestLog, type PeerHandle, type RecordedRequest, type Stall } from "./request-log.ts";
import { extendedCard, publicCard, SDK_PATHS, type SdkVersion } from "./sdk-card.ts";
import { PeerExecutor } from "./sdk-executor.ts";

export interface SdkAgentOptions {
  /** The versions served, default both; `["1.0"]` mounts no legacyCompat, so v0.3 calls are refused. */
  readonly versions?: readonly SdkVersion[];
  /** The bearer token the extended card needs; default "secret-token". */
  readonly token?: string;
  readonly stalls?: readonly Stall[];
  readonly name?: string;
}

export interface SdkAgent extends PeerHandle {
  /** The JSON-RPC endpoint (both versions; the `A2A-Version` header picks, absent meaning 0.3). */
  readonly jsonRpcUrl: string;
  /** The HTTP+JSON base: v1.0 paths under it (`/message:send`), v0.3 paths under `/v1`. */
  readonly restUrl: string;
  readonly token: string;
  readonly versions: readonly SdkVersion[];
}

export const DEFAULT_TOKEN = "secret-token";

/** express ships no type declarations (and @types/express is not installed); these tests need two members. */
interface ExpressApp {
  (req: IncomingMessage, res: ServerResponse): void;
  use(path: string, handler: unknown): void;
}
const loadCjs = createRequire(import.meta.url);
const express = loadCjs("express") as () => ExpressApp;

const EXTENDED_CARD_METHODS = new Set(["GetExtendedAgentCard", "agent/getAuthenticatedExtendedCard"]);

class BearerUser implements User {
  get isAuthenticated(): boolean {
    return true;
  }
  get userName(): string {
    return "bearer";
  }
}

function bearerOf(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const match = value === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(value);
  return match?.[1];
}

function rpcMethod(body: string): unknown {
  try {
    return (JSON.parse(body) as { method?: unknown } | null)?.method;
  } catch {
    return undefined;
  }
}

/** Whether a request asks for the extended card, on any binding or version. */
export function asksForExtendedCard(entry: RecordedRequest): boolean {
  if (entry.method === "GET" && entry.path.startsWith(`${SDK_PATHS.rest}/`)) {
    return entry.path.endsWith("/extendedAgentCard") || entry.path === `${SDK_PATHS.rest}/v1/card`;
  }
  if (entry.method === "POST" && entry.path === SDK_PATHS.jsonRpc) return EXTENDED_CARD_METHODS.has(rpcMethod(entry.body) as string);
  return false;
}

function unauthorized(): OwnAnswer {
  const body = JSON.stringify({ error: { code: 401, status: "UNAUTHENTICATED", message: "The extended agent card needs an Authorization: Bearer token." } });
  return { status: 401, headers: { "content-type": "application/json", "www-authenticate": 'Bearer realm="a2a-test-peer"' }, body };
}

export async function startSdkAgent(options: SdkAgentOptions = {}): Promise<SdkAgent> {
  const versions = options.versions ?? ["1.0", "0.3"];
  if (versions.length === 0) throw new Error("startSdkAgent: versions must name at least one version");
  const token = options.token ?? DEFAULT_TOKEN;
  const log = new RequestLog(options.stalls);
  // Routes are mounted once the front door's port (the card's base URL) is known.
  const routes = express();
  const backend = createServer((req, res) => routes(req, res));
  const backendPort = await listenLocal(backend);
  const front = await startFrontDoor({
    backendPort,
    log,
    intercept: (entry) => (asksForExtendedCard(entry) && bearerOf(entry.headers.authorization) !== token ? unauthorized() : null),
  });
  const baseUrl = `http://127.0.0.1:${front.port}`;

  const card = publicCard(baseUrl, versions, options.name ?? "Patchbay SDK test peer");
  const extended = extendedCard(card);
  const legacy = versions.includes("0.3");
  const pushStore = new InMemoryPushNotificationStore();
  const pushSender = legacy ? createLegacyAwarePushNotificationSender(pushStore) : new DefaultPushNotificationSender(pushStore);
  const executor = new PeerExecutor();
  const extendedFor = async (context: ServerCallContext) => (context.user?.isAuthenticated ? extended : card);
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor, undefined, pushStore, pushSender, extendedFor);
  const userBuilder = async (req: IncomingMessage): Promise<User> => (bearerOf(req.headers.authorization) === token ? new BearerUser() : new UnauthenticatedUser());
  const compat = legacy ? { legacyCompat: { enabled: true } } : {};

  // agentCardHandler writes the card with JSON.stringify, so ts-proto oneofs (securitySchemes)
  // would leak as {"scheme":{"$case":…}}: the v1.0 card is handed over as ProtoJSON already,
  // while the v0.3 router, which translates the ts-proto card itself, is mounted before it.
  const wireCard = AgentCard.toJSON(card) as AgentCard;
  if (legacy) routes.use(SDK_PATHS.card, legacyAgentCardRouter({ agentCardProvider: handler, cache: { maxAge: 0 } }));
  routes.use(SDK_PATHS.card, agentCardHandler({ agentCardProvider: async () => wireCard, cache: { maxAge: 0 } }));
  routes.use(SDK_PATHS.rest, restHandler({ requestHandler: handler, userBuilder, ...compat }));
  routes.use(SDK_PATHS.jsonRpc, jsonRpcHandler({ requestHandler: handler, userBuilder, ...compat }));

  return {
    baseUrl,
    cardUrl: `${baseUrl}${SDK_PATHS.card}`,
    jsonRpcUrl: `${baseUrl}${SDK_PATHS.jsonRpc}`,
    restUrl: `${baseUrl}${SDK_PATHS.rest}`,
    token,
    versions,
    get requests() {
      return log.requests;
    },
    setStalls: (stalls) => log.setStalls(stalls),
    clearRequests: () => log.clear(),
    close: async () => {
      executor.close();
      await closeServer(front.server);
      front.destroy();
      await closeServer(backend);
    },
  };
}
