import { routeProtocol } from "./protocol-ids.ts";
import type { FiskMessage, UnknownEvent } from "./types-messages.ts";

/** True for an event of a kind this build does not name, whose block travels as `rawBlock`. */
export function isUnknownEvent(message: FiskMessage): message is UnknownEvent {
  const route = routeProtocol(message.protocol);
  return typeof route !== "string" && route.unknownEvent;
}
