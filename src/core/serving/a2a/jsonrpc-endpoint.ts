/**
 * The JSON-RPC binding without a web framework: the body's text and the request's A2A-Version
 * in, one JSON answer or a stream of SSE events out. No header or 0.3 speaks v0.3 (the SDK's
 * compatibility layer), 1.0 speaks v1.0; a version the card does not list is refused.
 */
import { ServerCallContext, JsonRpcTransportHandler, UnauthenticatedUser, validateVersion, type A2ARequestHandler } from "@a2a-js/sdk/server";
import { isLegacyJsonRpcMethod, isV1JsonRpcMethod } from "@a2a-js/sdk/compat/v0_3";
import { LegacyJsonRpcTransportHandler } from "@a2a-js/sdk/compat/v0_3/server";
import { parseJsonText } from "../../json/index.ts";

export type JsonRpcAnswer =
  | { readonly kind: "json"; readonly status: number; readonly body: unknown }
  /** Each item is one SSE event; `error` marks the last one when the stream broke. */
  | { readonly kind: "stream"; readonly events: AsyncIterable<{ readonly data: unknown; readonly error?: true }> };

export interface JsonRpcRequestInfo {
  /** The A2A-Version header as sent; absent means 0.3. */
  readonly version?: string;
}

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INTERNAL_ERROR = -32603;
const LEGACY = "0.3";

type Mapper = (error: unknown) => { readonly code: number };

function idOf(body: unknown): unknown {
  return typeof body === "object" && body !== null && !Array.isArray(body) && "id" in body ? ((body as { id?: unknown }).id ?? null) : null;
}

function methodOf(body: unknown): unknown {
  return typeof body === "object" && body !== null && !Array.isArray(body) ? (body as { method?: unknown }).method : undefined;
}

function unknownMethod(method: string, legacy: boolean): string {
  if (legacy && isV1JsonRpcMethod(method)) return `Method not found: ${method} is an A2A 1.0 method; send the header A2A-Version: 1.0 to use it.`;
  if (!legacy && isLegacyJsonRpcMethod(method)) return `Method not found: ${method} is an A2A 0.3 method; send A2A-Version: 0.3 (or no A2A-Version) to use it.`;
  return `Method not found: ${JSON.stringify(method)} is not an A2A ${legacy ? "0.3" : "1.0"} method.`;
}

const isStream = (value: unknown): value is AsyncGenerator<unknown> => typeof value === "object" && value !== null && Symbol.asyncIterator in value;

export class JsonRpcEndpoint {
  readonly #handler: A2ARequestHandler;
  readonly #current: JsonRpcTransportHandler;
  readonly #legacy: LegacyJsonRpcTransportHandler;

  constructor(handler: A2ARequestHandler) {
    this.#handler = handler;
    this.#current = new JsonRpcTransportHandler(handler);
    this.#legacy = new LegacyJsonRpcTransportHandler(handler);
  }

  /** Answers one request body, whatever it holds: every failure is a JSON-RPC error. */
  async answer(text: string, info: JsonRpcRequestInfo): Promise<JsonRpcAnswer> {
    const legacy = (info.version || LEGACY) === LEGACY;
    const mapError: Mapper = legacy ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError : JsonRpcTransportHandler.mapToJSONRPCError;
    const parsed = parseJsonText(text);
    if (!parsed.ok) {
      const message = `Parse error: ${parsed.message} at line ${parsed.line}, column ${parsed.column}.`;
      return { kind: "json", status: 200, body: { jsonrpc: "2.0", id: null, error: { code: PARSE_ERROR, message } } };
    }
    const body = parsed.value;
    // A bare string would be parsed a second time by the SDK; only objects (and batches, which it refuses) go on.
    if (typeof body !== "object" || body === null) {
      return { kind: "json", status: 200, body: { jsonrpc: "2.0", id: null, error: { code: INVALID_REQUEST, message: "Invalid Request: the body must be a JSON-RPC request object." } } };
    }
    const id = idOf(body);
    // The SDK checks params first; an unknown method is named as such, whatever its params.
    const method = methodOf(body);
    if (typeof method === "string" && !(legacy ? isLegacyJsonRpcMethod(method) : isV1JsonRpcMethod(method))) {
      return { kind: "json", status: 200, body: { jsonrpc: "2.0", id, error: { code: METHOD_NOT_FOUND, message: unknownMethod(method, legacy) } } };
    }
    try {
      const context = new ServerCallContext({ user: new UnauthenticatedUser(), ...(info.version ? { requestedVersion: info.version } : {}) });
      validateVersion(context.requestedVersion, await this.#handler.getAgentCard(), "JSONRPC");
      const result: unknown = await (legacy ? this.#legacy : this.#current).handle(body as Record<string, unknown>, context);
      if (!isStream(result)) return { kind: "json", status: 200, body: result };
      // v0.3's resubscribe answers as a stream even when it fails at once, as the SDK's own server does.
      if (legacy && methodOf(body) === "tasks/resubscribe") return { kind: "stream", events: guarded(result, undefined, id, mapError) };
      let first: IteratorResult<unknown>;
      try {
        first = await result.next();
      } catch (error) {
        return { kind: "json", status: 200, body: { jsonrpc: "2.0", id, error: mapError(error) } };
      }
      return { kind: "stream", events: guarded(result, first, id, mapError) };
    } catch (error) {
      const mapped = mapError(error);
      return { kind: "json", status: mapped.code === INTERNAL_ERROR ? 500 : 200, body: { jsonrpc: "2.0", id, error: mapped } };
    }
  }
}

async function* guarded(stream: AsyncGenerator<unknown>, first: IteratorResult<unknown> | undefined, id: unknown, mapError: Mapper): AsyncGenerator<{ readonly data: unknown; readonly error?: true }> {
  let ended = false;
  try {
    if (first && !first.done) yield { data: first.value };
    if (first?.done) return;
    for (;;) {
      const next = await stream.next();
      if (next.done) return void (ended = true);
      yield { data: next.value };
    }
  } catch (error) {
    ended = true;
    yield { data: { jsonrpc: "2.0", id, error: mapError(error) }, error: true };
  } finally {
    // A client that left: the SDK stores the task's events as it streams them, so the rest of
    // the stream is read to its end (nobody sees it) and tasks/get still finds how it ended.
    if (!ended) void drain(stream);
  }
}

async function drain(stream: AsyncGenerator<unknown>): Promise<void> {
  try {
    for (;;) if ((await stream.next()).done) return;
  } catch {
    // The stream broke after the client left; the SDK has stored what it could.
  }
}
