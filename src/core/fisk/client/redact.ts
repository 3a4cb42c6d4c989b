/** What a conversation token is replaced with wherever text is shown or logged. */
export const REDACTED = "•••";

/** The text with one known secret replaced, every occurrence. */
export function redactToken(text: string, token: string | undefined): string {
  return token ? text.split(token).join(REDACTED) : text;
}

const TOKEN_MEMBER = /("conversation_token"\s*:\s*")((?:[^"\\]|\\.)*)(")/g;

/**
 * Every `conversation_token` value in JSON text replaced, without knowing the tokens: for frames
 * of other peers' conversations (the tap) and for logs.
 */
export function redactConversationTokens(text: string): string {
  return text.replace(TOKEN_MEMBER, (_m, open: string, value: string, close: string) => (value === "" ? `${open}${close}` : `${open}${REDACTED}${close}`));
}

const utf8 = new TextDecoder("utf-8", { fatal: true });
const MARKER = "conversation_token";

/**
 * A wire-log redactor: a frame whose text carries a conversation_token is stored with the token
 * replaced and a note saying so. Other frames, and bytes that are not UTF-8, pass unchanged.
 */
export function redactFrameTokens<F extends { readonly bytes: Uint8Array; readonly note?: string }>(frame: F): F {
  if (frame.bytes.length < MARKER.length) return frame;
  let text: string;
  try {
    text = utf8.decode(frame.bytes);
  } catch {
    return frame;
  }
  if (!text.includes(MARKER)) return frame;
  const redacted = redactConversationTokens(text);
  if (redacted === text) return frame;
  const note = frame.note ? `${frame.note}; conversation_token redacted` : "conversation_token redacted";
  return { ...frame, bytes: new TextEncoder().encode(redacted), note };
}
