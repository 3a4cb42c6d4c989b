import { EVENT_PREFIX, GEN2_EVENT_KINDS, NAMESPACE, type Gen2EventKind } from "../../packs/fisk-ai/protocol.ts";

/**
 * Every protocol id the codec names, and the routing rule of §8.1: the id is the only type.
 * `…event.<one segment>` is an event (named or not), the request and elicit ids are matched
 * exactly, and anything else outside this table is refused.
 */

const id = <S extends string>(suffix: S): `${typeof NAMESPACE}.${S}` => `${NAMESPACE}.${suffix}`;

export const FISK_PROTOCOLS = {
  discoveryRequest: id("discovery.request"),
  discoveryReply: id("discovery.reply"),
  toolRequest: id("tool.request"),
  toolReply: id("tool.reply"),
  ack: id("ack"),
  result: id("result"),
  error: id("error"),
  cancel: id("cancel"),
  requestPrompt: id("request.prompt"),
  requestAnswer: id("request.answer"),
  requestResume: id("request.resume"),
  requestRead: id("request.read"),
  eventThinking: id("event.thinking"),
  eventText: id("event.text"),
  eventToolCall: id("event.tool_call"),
  eventToolResult: id("event.tool_result"),
  eventAgentCall: id("event.agent_call"),
  eventStatus: id("event.status"),
  eventWarning: id("event.warning"),
  eventPrompt: id("event.prompt"),
  elicitRequestApprove: id("elicit.request.approve"),
  elicitRequestConfirm: id("elicit.request.confirm"),
  elicitRequestSelect: id("elicit.request.select"),
  elicitRequestInput: id("elicit.request.input"),
  elicitReplyApprove: id("elicit.reply.approve"),
  elicitReplyConfirm: id("elicit.reply.confirm"),
  elicitReplySelect: id("elicit.reply.select"),
  elicitReplyInput: id("elicit.reply.input"),
  elicitReplyNoOperator: id("elicit.reply.no_operator"),
  elicitWaiting: id("elicit.waiting"),
  /** Gen 1 only: Gen 2 uses these two strings as family prefixes, never as ids. */
  gen1Request: id("request"),
  gen1Event: id("event"),
} as const;

export type FiskProtocol = (typeof FISK_PROTOCOLS)[keyof typeof FISK_PROTOCOLS];

export type Generation = "gen1" | "gen2" | "either";

/** What an id routes to: the kind (the id without the namespace) and who uses it. */
export interface Route {
  readonly kind: string;
  readonly generation: Generation;
  /** True for an event kind this build does not name; its block is kept verbatim. */
  readonly unknownEvent: boolean;
}

export type RouteFailure = "unknown-protocol" | "invalid-event-id";

const SHARED = new Set<string>([
  FISK_PROTOCOLS.discoveryRequest,
  FISK_PROTOCOLS.discoveryReply,
  FISK_PROTOCOLS.toolRequest,
  FISK_PROTOCOLS.toolReply,
  FISK_PROTOCOLS.ack,
  FISK_PROTOCOLS.result,
  FISK_PROTOCOLS.error,
  FISK_PROTOCOLS.cancel,
]);
const GEN1_ONLY = new Set<string>([FISK_PROTOCOLS.gen1Request, FISK_PROTOCOLS.gen1Event]);
const GEN2_EXACT = new Set<string>(
  Object.values(FISK_PROTOCOLS).filter((p) => !SHARED.has(p) && !GEN1_ONLY.has(p) && !p.startsWith(EVENT_PREFIX)),
);
const NAMED_EVENT_KINDS: ReadonlySet<string> = new Set<string>(GEN2_EVENT_KINDS);
const KIND_START = NAMESPACE.length + 1;

export function isNamedEventKind(kind: string): kind is Gen2EventKind {
  return NAMED_EVENT_KINDS.has(kind);
}

/** Routes a protocol id, or says why it is refused. Pure string work; never throws. */
export function routeProtocol(protocol: string): Route | RouteFailure {
  if (SHARED.has(protocol)) return { kind: protocol.slice(KIND_START), generation: "either", unknownEvent: false };
  if (GEN1_ONLY.has(protocol)) return { kind: protocol.slice(KIND_START), generation: "gen1", unknownEvent: false };
  if (GEN2_EXACT.has(protocol)) return { kind: protocol.slice(KIND_START), generation: "gen2", unknownEvent: false };
  if (protocol.startsWith(EVENT_PREFIX)) {
    const kind = protocol.slice(EVENT_PREFIX.length);
    if (kind.length === 0 || kind.includes(".")) return "invalid-event-id";
    return { kind: `event.${kind}`, generation: "gen2", unknownEvent: !isNamedEventKind(kind) };
  }
  return "unknown-protocol";
}

