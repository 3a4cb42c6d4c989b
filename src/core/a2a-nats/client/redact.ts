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
