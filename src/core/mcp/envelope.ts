/**
 * The 2026-07-28 `_meta` envelope: every modern request names its protocol version, the client
 * and the client's capabilities for that request, and may ask for log messages at a level.
 */
import { isJsonObject } from "../json/index.ts";

export const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
export const META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
export const META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
export const META_LOG_LEVEL = "io.modelcontextprotocol/logLevel";
export const META_SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";
export const META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";

/** What the envelope carries for one request. */
export interface Envelope {
  readonly protocolVersion: string;
  readonly clientInfo: { readonly name: string; readonly version: string };
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  /** Absent: the server sends no log messages for the request. */
  readonly logLevel?: string;
}

/** The envelope's `_meta` keys. */
export function envelopeMeta(envelope: Envelope): Record<string, unknown> {
  return {
    [META_PROTOCOL_VERSION]: envelope.protocolVersion,
    [META_CLIENT_INFO]: envelope.clientInfo,
    [META_CLIENT_CAPABILITIES]: envelope.clientCapabilities,
    ...(envelope.logLevel !== undefined ? { [META_LOG_LEVEL]: envelope.logLevel } : {}),
  };
}

/**
 * `params` with the envelope in its `_meta`. Keys the caller already put in `_meta` win, so a
 * console user can send a deliberately wrong version or capability set.
 */
export function withEnvelope(params: Readonly<Record<string, unknown>> | undefined, envelope: Envelope): Record<string, unknown> {
  const own = params?._meta;
  const meta = { ...envelopeMeta(envelope), ...(isJsonObject(own) ? own : {}) };
  return { ...params, _meta: meta };
}

/** The protocol version a message's envelope claims, when it carries one. */
export function envelopeVersion(message: unknown): string | undefined {
  if (!isJsonObject(message) || !isJsonObject(message.params)) return undefined;
  const meta = message.params._meta;
  const version = isJsonObject(meta) ? meta[META_PROTOCOL_VERSION] : undefined;
  return typeof version === "string" ? version : undefined;
}
