import { redactConversationTokens, redactToken } from "../../../core/fisk/client/index.ts";
import { isJsonObject } from "../../../core/json/index.ts";
import type { NatsMessage } from "../../../core/nats/port.ts";

/**
 * Message text for raw views. A `conversation_token` is a credential: the client's redaction runs
 * on the text before anything else, so the token never reaches the screen, pretty-printed or not.
 */

const DISPLAY_LIMIT = 256 * 1024;

/** The text as shown: redacted, then pretty JSON when it parses, else as is (cut when huge). */
export function displayText(text: string): string {
  const safe = redactConversationTokens(text);
  try {
    return JSON.stringify(JSON.parse(safe), null, 2);
  } catch {
    return safe.length > DISPLAY_LIMIT ? `${safe.slice(0, DISPLAY_LIMIT)}\n… ${safe.length - DISPLAY_LIMIT} more characters not shown` : safe;
  }
}

const lenient = new TextDecoder("utf-8");

/** A message's body for display; an empty body (a micro refusal) says so. */
export function displayBody(message: NatsMessage): string {
  if (message.data.byteLength === 0) return "(empty body)";
  return displayText(lenient.decode(message.data));
}

/** The token values inside a parsed message, to scrub from derived strings such as issue texts. */
export function secretsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) secretsIn(v, found);
  else if (isJsonObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (k === "conversation_token" && typeof v === "string" && v !== "") found.push(v);
      else secretsIn(v, found);
    }
  }
  return found;
}

/** `text` with every given secret replaced. */
export function scrub(text: string, secrets: readonly string[]): string {
  return secrets.reduce((out, s) => redactToken(out, s), text);
}
