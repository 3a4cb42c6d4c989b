import {
  between,
  type SchemaNode,
  type NodeObject,
  obj,
  lit,
  oneOfStrings,
  record,
  ref,
  since,
  str,
} from "./schema-dsl.ts";
import type { McpVersion } from "./versions.ts";

/**
 * Shapes every MCP definition is built from: the request, notification and result skeletons and
 * the `_meta` members, each written once with the versions in which it changed.
 */

/** Requests and notifications became whole JSON-RPC messages in the schema of 2025-11-25. */
export const ENVELOPED: McpVersion = "2025-11-25";
/** The stateless era: per-request `_meta`, `resultType`, caching hints, multi-round-trip input. */
export const STATELESS: McpVersion = "2026-07-28";

/** `_meta` members by where they sit. Before 2026-07-28 all were free-form objects. */
export const meta = {
  result: since(STATELESS, ref("ResultMetaObject"), record({})),
  object: since(STATELESS, ref("MetaObject"), record({})),
  notification: since(STATELESS, ref("NotificationMetaObject"), record({})),
  request: since(STATELESS, ref("RequestMetaObject"), obj({ progressToken: ref("ProgressToken") })),
};

/** `_meta` on content, resources, tools and the like, which gained it in 2025-06-18. */
export const objectMeta = since("2025-06-18", meta.object);

/**
 * A request's own params object. Before 2025-11-25 the params were written inline without
 * `_meta`; from then on they carry `_meta`, which 2026-07-28 makes required.
 */
export function params(properties: Record<string, SchemaNode>, required: readonly SchemaNode[] = []): NodeObject {
  return obj({ _meta: since(ENVELOPED, meta.request), ...properties }, [since(STATELESS, "_meta"), ...required]);
}

/** A notification's own params object; `_meta` appears with 2025-11-25. */
export function notificationParams(properties: Record<string, SchemaNode>, required: readonly SchemaNode[] = []): NodeObject {
  return obj({ _meta: since(ENVELOPED, meta.notification), ...properties }, required);
}

function enveloped(node: SchemaNode, envelopeUntil: McpVersion | undefined): SchemaNode {
  return envelopeUntil ? between(ENVELOPED, envelopeUntil, node) : since(ENVELOPED, node);
}

/**
 * A request. Until 2025-06-18 the definition holds only `method` and `params` (the JSON-RPC
 * envelope is a separate definition); from 2025-11-25 it is the whole message. Requests that
 * 2026-07-28 embeds in results lose the envelope again (`envelopeUntil`).
 */
export function request(method: string, paramsSchema: SchemaNode, paramsRequired: SchemaNode | null, envelopeUntil?: McpVersion): NodeObject {
  const required: SchemaNode[] = ["id", "jsonrpc", "method"];
  if (paramsRequired !== null) required.push(paramsRequired);
  return obj(
    {
      id: enveloped(ref("RequestId"), envelopeUntil),
      jsonrpc: enveloped(lit("2.0"), envelopeUntil),
      method: lit(method),
      params: paramsSchema,
    },
    required,
  );
}

/** A notification; like requests, it became a whole JSON-RPC message in 2025-11-25. */
export function notification(method: string, paramsSchema: SchemaNode, paramsRequired: boolean): NodeObject {
  return obj({ jsonrpc: since(ENVELOPED, lit("2.0")), method: lit(method), params: paramsSchema }, [
    "jsonrpc",
    "method",
    ...(paramsRequired ? ["params"] : []),
  ]);
}

/** A notification carrying only `_meta`: the list_changed family and `initialized`. */
export function bareNotification(method: string): NodeObject {
  return notification(method, since(ENVELOPED, ref("NotificationParams"), legacyNotificationParams()), false);
}

/** Params of a request without params of its own (ping, roots/list): only the common `_meta`. */
export function legacyRequestParams(): NodeObject {
  return obj({ _meta: obj({ progressToken: ref("ProgressToken") }) }, [], { additionalProperties: {} });
}

export function legacyNotificationParams(): NodeObject {
  return obj({ _meta: record({}) }, [], { additionalProperties: {} });
}

export interface ResultOptions {
  /** 2026-07-28 list and read results carry caching hints. */
  readonly cacheable?: boolean;
}

/** A result: `_meta`, then from 2026-07-28 a required `resultType` (and caching hints where asked). */
export function result(properties: Record<string, SchemaNode>, required: readonly SchemaNode[], options: ResultOptions = {}): NodeObject {
  const cache: Record<string, SchemaNode> = options.cacheable
    ? { cacheScope: since(STATELESS, oneOfStrings("private", "public")), ttlMs: since(STATELESS, { type: "integer", minimum: 0 }) }
    : {};
  return obj({ _meta: meta.result, resultType: since(STATELESS, str()), ...properties, ...cache }, [
    ...required,
    "resultType",
    ...(options.cacheable ? ["cacheScope", "ttlMs"] : []),
  ]);
}

/** A paginated result: a page of `items` under `key`, and the cursor of the next page. */
export function page(key: string, item: string, options: ResultOptions = {}): NodeObject {
  return result({ [key]: { type: "array", items: ref(item) }, nextCursor: str() }, [key], options);
}
