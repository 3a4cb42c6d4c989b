/**
 * Just enough JSON-RPC reading for the relay to keep its books: which requests a frame going out
 * asks, and which of them a frame coming back answers. Frames are forwarded as they are; these
 * readings never change them, and text that is not JSON-RPC simply asks and answers nothing.
 */
import { jsonOrUndefined } from "../../src/core/json/index.ts";
import type { JsonRpcId } from "../../src/core/mcp/relay-api.ts";

export interface OutgoingFrame {
  /** Ids of the requests in the frame (single or batch), in order. */
  readonly requestIds: readonly JsonRpcId[];
  /** Ids of the `initialize` requests among them. */
  readonly initializeIds: readonly JsonRpcId[];
  /** Ids of `subscriptions/listen` requests: their answer is a stream meant to stay open and quiet. */
  readonly listenIds: readonly JsonRpcId[];
}

const NOTHING: OutgoingFrame = { requestIds: [], initializeIds: [], listenIds: [] };

const isId = (v: unknown): v is JsonRpcId => typeof v === "string" || (typeof v === "number" && Number.isFinite(v));
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** What a frame the client sends asks of the server. */
export function readOutgoing(bytes: Buffer): OutgoingFrame {
  const value = jsonOrUndefined(bytes.toString("utf8"));
  if (value === undefined) return NOTHING;
  const requestIds: JsonRpcId[] = [];
  const initializeIds: JsonRpcId[] = [];
  const listenIds: JsonRpcId[] = [];
  for (const item of Array.isArray(value) ? value : [value]) {
    if (!isObject(item) || typeof item.method !== "string" || !isId(item.id)) continue;
    requestIds.push(item.id);
    if (item.method === "initialize") initializeIds.push(item.id);
    if (item.method === "subscriptions/listen") listenIds.push(item.id);
  }
  return requestIds.length === 0 ? NOTHING : { requestIds, initializeIds, listenIds };
}

export interface IncomingFrame {
  /** True when the text is a JSON-RPC object or a batch holding one. */
  readonly jsonRpc: boolean;
  /** Ids this frame answers (responses: result or error, no method). */
  readonly answered: readonly JsonRpcId[];
  /** The protocol version of an initialize result among them, by id. */
  readonly versions: ReadonlyMap<string, string>;
}

/** A key that tells the number 1 from the string "1". */
export const idKey = (id: JsonRpcId): string => (typeof id === "number" ? `n${id}` : `s${id}`);

/** What a frame from the server answers. */
export function readIncoming(text: string): IncomingFrame {
  const value = jsonOrUndefined(text);
  const items = Array.isArray(value) ? value : [value];
  let jsonRpc = false;
  const answered: JsonRpcId[] = [];
  const versions = new Map<string, string>();
  for (const item of items) {
    if (!isObject(item) || item.jsonrpc === undefined) continue;
    jsonRpc = true;
    if ("method" in item || !isId(item.id) || !("result" in item || "error" in item)) continue;
    answered.push(item.id);
    const version = isObject(item.result) ? item.result.protocolVersion : undefined;
    if (typeof version === "string") versions.set(idKey(item.id), version);
  }
  return { jsonRpc, answered, versions };
}

/** The requests of one exchange not answered yet. */
export class Outstanding {
  readonly #left = new Map<string, JsonRpcId>();

  constructor(ids: readonly JsonRpcId[]) {
    for (const id of ids) this.#left.set(idKey(id), id);
  }

  get size(): number {
    return this.#left.size;
  }

  /** Strike the ids a frame answers. */
  answer(ids: readonly JsonRpcId[]): void {
    for (const id of ids) this.#left.delete(idKey(id));
  }

  has(id: JsonRpcId): boolean {
    return this.#left.has(idKey(id));
  }

  /** The ids still waiting. */
  peek(): JsonRpcId[] {
    return [...this.#left.values()];
  }

  /** The ids still waiting, and forget them: each is reported once. */
  take(): JsonRpcId[] {
    const ids = [...this.#left.values()];
    this.#left.clear();
    return ids;
  }
}

/** "request 3" or "requests 3, 4": how messages name the requests left waiting. */
export function nameRequests(ids: readonly JsonRpcId[]): string {
  const shown = ids.slice(0, 5).map((id) => JSON.stringify(id)).join(", ");
  const more = ids.length > 5 ? ` and ${ids.length - 5} more` : "";
  return `${ids.length === 1 ? "request" : "requests"} ${shown}${more}`;
}
