/** A JSON pointer that breaks RFC 6901 syntax: it names no location at all. */
export class JsonPointerSyntaxError extends Error {
  override readonly name = "JsonPointerSyntaxError";
}

/**
 * Splits an RFC 6901 pointer ("" or "/a/0/b~1c") into unescaped reference tokens.
 * Throws JsonPointerSyntaxError for a pointer without a leading "/" or with a bad "~" escape.
 */
export function parsePointer(pointer: string): string[] {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) {
    throw new JsonPointerSyntaxError(`JSON pointer "${pointer}" must be empty or start with "/"`);
  }
  return pointer
    .slice(1)
    .split("/")
    .map((token) => {
      if (/~(?![01])/.test(token)) {
        throw new JsonPointerSyntaxError(`JSON pointer "${pointer}" has a "~" not followed by 0 or 1`);
      }
      // "~1" first, so "~01" becomes "~1" and not "/".
      return token.replaceAll("~1", "/").replaceAll("~0", "~");
    });
}

/** Builds a pointer from reference tokens, escaping "~" and "/". */
export function formatPointer(tokens: readonly (string | number)[]): string {
  return tokens.map((t) => "/" + String(t).replaceAll("~", "~0").replaceAll("/", "~1")).join("");
}

/** The array index a token names, or undefined ("-", leading zeros and non-digits name none). */
export function arrayIndex(token: string): number | undefined {
  return /^(?:0|[1-9]\d*)$/.test(token) ? Number(token) : undefined;
}
