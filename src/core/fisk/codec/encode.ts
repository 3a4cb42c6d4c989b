import { assertJson, goMessageText } from "./go-encode.ts";
import { FiskEncodeError, valueText } from "./json-text.ts";
import { routeProtocol, type Route } from "./protocol-ids.ts";
import type { FiskMessage } from "./types-messages.ts";

export interface EncodeOptions {
  /**
   * Write exactly what fisk-ai's Go code would send for this message: struct field order,
   * omitempty, sorted maps, `\u003c \u003e \u0026`, times re-written as Go writes them, fields
   * the Go struct does not declare dropped. Off: compact JSON of the object as it is, extra
   * properties and their order kept.
   */
  readonly go?: boolean;
}

/** `rawBlock` is the codec's own carrier for an unknown event's block text, never a wire field. */
const RAW_BLOCK = "rawBlock";
const PLAIN = { go: false, sortKeys: false } as const;

function routeOf(message: unknown): { route: Route; obj: Record<string, unknown> } {
  if (typeof message !== "object" || message === null || Array.isArray(message)) {
    throw new FiskEncodeError("a fisk-ai message is an object");
  }
  const obj = message as Record<string, unknown>;
  if (typeof obj.protocol !== "string") throw new FiskEncodeError("the message has no protocol id");
  const route = routeProtocol(obj.protocol);
  if (typeof route === "string") throw new FiskEncodeError(`${JSON.stringify(obj.protocol)} is not a fisk-ai protocol id (${route})`);
  return { route, obj };
}

/** The object as it is, with an unknown event's block written back from its original text. */
function plainText(route: Route, obj: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const key of Object.keys(obj)) {
    if (key === RAW_BLOCK && route.unknownEvent) {
      // Built by hand with only the text: it still goes out as the block.
      if (!Object.hasOwn(obj, "block") && typeof obj[RAW_BLOCK] === "string") {
        assertJson(obj[RAW_BLOCK]);
        parts.push(`"block":${obj[RAW_BLOCK]}`);
      }
      continue;
    }
    const member = obj[key];
    if (member === undefined) continue;
    let text: string;
    if (key === "block" && route.unknownEvent && typeof obj[RAW_BLOCK] === "string") {
      text = obj[RAW_BLOCK];
      assertJson(text);
    } else {
      text = valueText(member, PLAIN, key);
    }
    parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(",")}}`;
}

/**
 * A message as compact JSON text. Throws FiskEncodeError for an id outside fisk-ai's set, a value
 * with no JSON form, or (with `go`) a field Go's structs could not hold.
 */
export function encodeFiskMessage(message: FiskMessage, options: EncodeOptions = {}): string {
  const { route, obj } = routeOf(message);
  return options.go ? goMessageText(route, obj) : plainText(route, obj);
}

const encoder = new TextEncoder();

/** `encodeFiskMessage` as UTF-8 bytes, ready to publish. */
export function encodeFiskBytes(message: FiskMessage, options: EncodeOptions = {}): Uint8Array {
  return encoder.encode(encodeFiskMessage(message, options));
}
