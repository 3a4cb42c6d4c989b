/**
 * Hand-written legacy A2A peers on node:http (no SDK speaks these dialects any more): Google A2A
 * v0.1, v0.2.4, and v0.1 as OpenFang v0.6.9 serves it. Every request is recorded, and stalls
 * can hold back chosen paths.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { parseCall, RPC_CODE, RpcFault, sendFault, sendJson } from "./json-rpc.ts";
import { TaskBoard } from "./legacy-board.ts";
import { OPENFANG_CARD_PATH, OpenFangPeer } from "./legacy-openfang.ts";
import { handleV01, V01_CARD_PATH, v01Card, v01Task } from "./legacy-v01.ts";
import { handleV02, V02_CARD_PATH, v02Card, v02Task } from "./legacy-v02.ts";
import { closeServer, listenLocal, readBody, RequestLog, type PeerHandle, type RecordedRequest, type Stall } from "./request-log.ts";

export type LegacyDialect = "0.1" | "0.2";

export interface LegacyAgentOptions {
  readonly dialect: LegacyDialect;
  /** "openfang" (dialect "0.1" only): behave as OpenFang v0.6.9, not as the v0.1 specification says. */
  readonly quirks?: "openfang";
  readonly stalls?: readonly Stall[];
  readonly name?: string;
}

export interface LegacyAgent extends PeerHandle {
  readonly dialect: LegacyDialect;
  readonly quirks: "openfang" | undefined;
  /** Where the peer answers JSON-RPC (`{base}/`); for the OpenFang peer, its task send route (`{base}/a2a/tasks/send`). */
  readonly rpcUrl: string;
}

/** The JSON-RPC endpoint of the v0.1 and v0.2 peers, which their cards name as `url`. */
export const LEGACY_RPC_PATH = "/";

type Route = (entry: RecordedRequest, res: ServerResponse) => Promise<void>;

function rpcRoute(card: Record<string, unknown>, cardPath: string, board: TaskBoard, dialect: LegacyDialect): Route {
  const handle = dialect === "0.1" ? handleV01 : handleV02;
  return async (entry, res) => {
    if (entry.path === cardPath && entry.method === "GET") return sendJson(res, 200, card);
    if (entry.path !== LEGACY_RPC_PATH) return sendJson(res, 404, { error: `no route for ${entry.method} ${entry.path}` });
    if (entry.method !== "POST") return sendJson(res, 405, { error: "JSON-RPC requests are POSTed" });
    const call = parseCall(entry.body);
    if ("fault" in call) return sendFault(res, call.id, call.fault);
    try {
      await handle(call, res, board);
    } catch (err) {
      const fault = err instanceof RpcFault ? err : new RpcFault(RPC_CODE.internal, (err as Error).message);
      if (!res.headersSent) sendFault(res, call.id, fault);
      else res.end();
    }
  };
}

export async function startLegacyAgent(options: LegacyAgentOptions): Promise<LegacyAgent> {
  const { dialect, quirks } = options;
  if (quirks === "openfang" && dialect !== "0.1") throw new Error('startLegacyAgent: quirks "openfang" needs dialect "0.1"');
  const log = new RequestLog(options.stalls);
  let route: Route | undefined;
  const server = createServer((req, res) => {
    void serve(req, res, log, () => route);
  });
  const port = await listenLocal(server);
  const baseUrl = `http://127.0.0.1:${port}`;
  const name = options.name ?? (quirks === "openfang" ? "assistant" : `Patchbay legacy v${dialect} test peer`);
  let board: TaskBoard | undefined;
  let cardPath: string;
  if (quirks === "openfang") {
    const peer = new OpenFangPeer(baseUrl, name);
    route = (entry, res) => peer.handle(entry, res);
    cardPath = OPENFANG_CARD_PATH;
  } else if (dialect === "0.1") {
    board = new TaskBoard({ serialize: (task) => v01Task(task) });
    route = rpcRoute(v01Card(baseUrl, name), V01_CARD_PATH, board, dialect);
    cardPath = V01_CARD_PATH;
  } else {
    board = new TaskBoard({ serialize: (task) => v02Task(task) });
    route = rpcRoute(v02Card(baseUrl, name), V02_CARD_PATH, board, dialect);
    cardPath = V02_CARD_PATH;
  }
  return {
    dialect,
    quirks,
    baseUrl,
    cardUrl: `${baseUrl}${cardPath}`,
    rpcUrl: quirks === "openfang" ? `${baseUrl}/a2a/tasks/send` : `${baseUrl}${LEGACY_RPC_PATH}`,
    get requests() {
      return log.requests;
    },
    setStalls: (stalls) => log.setStalls(stalls),
    clearRequests: () => log.clear(),
    close: async () => {
      board?.close();
      await closeServer(server);
    },
  };
}

async function serve(req: IncomingMessage, res: ServerResponse, log: RequestLog, route: () => Route | undefined): Promise<void> {
  let body: Buffer;
  try {
    body = await readBody(req);
  } catch {
    if (!res.headersSent) res.writeHead(413).end();
    return;
  }
  const entry = log.record(req, body.toString("utf8"));
  if ((await log.hold(entry)) === "hang" || res.destroyed) return;
  const handler = route();
  if (!handler) return void res.writeHead(503).end();
  await handler(entry, res).catch(() => {
    if (!res.headersSent) res.writeHead(500).end();
  });
}
