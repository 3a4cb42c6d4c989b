/** JSON-RPC 2.0 and SSE plumbing for the hand-written legacy peers. */
import type { ServerResponse } from "node:http";

export type RpcId = string | number | null;

export interface RpcCall {
  readonly id: RpcId;
  readonly method: string;
  readonly params: unknown;
}

/** The codes the legacy dialects share (v0.1 and v0.2 agree on these). */
export const RPC_CODE = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  taskNotFound: -32001,
  taskNotCancelable: -32002,
  pushNotSupported: -32003,
  unsupportedOperation: -32004,
} as const;

export class RpcFault extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Parses a request body into a call, or the error response it deserves. */
export function parseCall(body: string): RpcCall | { readonly fault: RpcFault; readonly id: RpcId } {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { fault: new RpcFault(RPC_CODE.parse, "Invalid JSON payload"), id: null };
  }
  if (!isObject(value)) return { fault: new RpcFault(RPC_CODE.invalidRequest, "A request must be a JSON object"), id: null };
  const id = typeof value.id === "string" || typeof value.id === "number" ? value.id : null;
  if (value.jsonrpc !== "2.0" || typeof value.method !== "string") {
    return { fault: new RpcFault(RPC_CODE.invalidRequest, 'A request needs jsonrpc "2.0" and a method'), id };
  }
  return { id, method: value.method, params: value.params };
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) }).end(body);
}

export function sendResult(res: ServerResponse, id: RpcId, result: unknown): void {
  sendJson(res, 200, { jsonrpc: "2.0", id, result });
}

export function sendFault(res: ServerResponse, id: RpcId, fault: RpcFault): void {
  sendJson(res, 200, { jsonrpc: "2.0", id, error: { code: fault.code, message: fault.message } });
}

/** Starts an event stream; each call writes one `data:` event. */
export function openStream(res: ServerResponse): (value: unknown) => void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  res.flushHeaders();
  return (value) => {
    if (!res.writableEnded) res.write(`data: ${JSON.stringify(value)}\n\n`);
  };
}

/** Reads a required string member of params, or faults with invalid params. */
export function needString(params: unknown, key: string): string {
  const value = isObject(params) ? params[key] : undefined;
  if (typeof value !== "string" || value === "") throw new RpcFault(RPC_CODE.invalidParams, `params.${key} must be a non-empty string`);
  return value;
}

export function needObject(params: unknown, key: string): Record<string, unknown> {
  const value = isObject(params) ? params[key] : undefined;
  if (!isObject(value)) throw new RpcFault(RPC_CODE.invalidParams, `params.${key} must be an object`);
  return value;
}

/** An optional non-negative integer member (historyLength, say). */
export function optionalCount(params: unknown, key: string): number | undefined {
  const value = isObject(params) ? params[key] : undefined;
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) throw new RpcFault(RPC_CODE.invalidParams, `params.${key} must be a non-negative integer`);
  return value;
}
