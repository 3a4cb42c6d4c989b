/** A scalar JSON value's place in the text. */
export interface JsonScalarNode {
  readonly type: "string" | "number" | "boolean" | "null";
  readonly offset: number;
  length: number;
}

/** One `"key": value` member; `value` is absent when the text broke off before it. */
export interface JsonPropertyNode {
  /** The key with its escapes decoded, as JSON.parse would see it. */
  readonly key: string;
  readonly keyOffset: number;
  readonly keyLength: number;
  value?: JsonNode;
}

export interface JsonObjectNode {
  readonly type: "object";
  readonly offset: number;
  length: number;
  readonly properties: JsonPropertyNode[];
}

export interface JsonArrayNode {
  readonly type: "array";
  readonly offset: number;
  length: number;
  readonly items: JsonNode[];
}

/** A value in the tree the scanner builds; offsets and lengths are in UTF-16 code units. */
export type JsonNode = JsonScalarNode | JsonObjectNode | JsonArrayNode;

/** The first syntax error, at the offset of the offending character (or the end of the text). */
export interface JsonSyntaxProblem {
  readonly message: string;
  readonly offset: number;
}

/** What the scanner found: the tree up to the first error, and that error if any. */
export interface JsonScanResult {
  readonly root?: JsonNode;
  readonly error?: JsonSyntaxProblem;
}

/** Nesting deeper than this is refused: such input is hostile or broken, and editors choke on it. */
export const DEFAULT_MAX_DEPTH = 1000;

class ScanError extends Error {
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(message);
    this.offset = offset;
  }
}

type Container = JsonObjectNode | JsonArrayNode;

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERALS = [
  ["true", "boolean"],
  ["false", "boolean"],
  ["null", "null"],
] as const;

function describe(text: string, pos: number): string {
  if (pos >= text.length) return "end of input";
  const code = text.codePointAt(pos)!;
  if (code < 0x20 || code === 0xfeff) return `character U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
  return `'${String.fromCodePoint(code)}'`;
}

/**
 * Scans JSON (RFC 8259, strict) into a position tree without recursion, so hostile nesting yields
 * an error instead of a stack overflow. On a syntax error the tree built so far is kept: open
 * containers end at the error, which lets callers still locate everything before it.
 */
export function scanJson(text: string, maxDepth = DEFAULT_MAX_DEPTH): JsonScanResult {
  const stack: Container[] = [];
  let root: JsonNode | undefined;
  let pos = 0;
  let pendingProperty: JsonPropertyNode | undefined;

  const skipWs = (): void => {
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === 32 || c === 9 || c === 10 || c === 13) pos++;
      else return;
    }
  };

  const unexpected = (expected: string): ScanError => {
    if (text.startsWith("//", pos) || text.startsWith("/*", pos)) {
      return new ScanError("Comments are not allowed in JSON", pos);
    }
    return new ScanError(`Unexpected ${describe(text, pos)}: ${expected}`, pos);
  };

  /** Reads a string at pos (which holds '"'); returns the decoded text when `decode` is set. */
  const readString = (decode: boolean): string => {
    const start = pos;
    pos++;
    let out = "";
    let chunk = pos;
    for (;;) {
      if (pos >= text.length) throw new ScanError("Unterminated string", start);
      const c = text.charCodeAt(pos);
      if (c === 34) {
        if (decode) out += text.slice(chunk, pos);
        pos++;
        return out;
      }
      if (c < 0x20) {
        throw new ScanError(`Unescaped ${describe(text, pos)} in string: control characters must be escaped`, pos);
      }
      if (c !== 92) {
        pos++;
        continue;
      }
      if (decode) out += text.slice(chunk, pos);
      const e = text[pos + 1];
      if (e === "u") {
        const hex = text.slice(pos + 2, pos + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new ScanError("Invalid \\u escape: expected 4 hex digits", pos);
        if (decode) out += String.fromCharCode(parseInt(hex, 16));
        pos += 6;
      } else {
        const simple = e === undefined ? undefined : ESCAPES[e];
        if (simple === undefined) throw new ScanError(`Invalid escape ${describe(text, pos + 1)} in string`, pos);
        if (decode) out += simple;
        pos += 2;
      }
      chunk = pos;
    }
  };

  /** Reads a value at pos: a finished scalar, or a container that was just opened. */
  const readValue = (): JsonNode => {
    const c = text[pos];
    if (c === "{" || c === "[") {
      if (stack.length >= maxDepth) {
        throw new ScanError(`Nesting is deeper than the limit of ${maxDepth} levels`, pos);
      }
      const node: Container =
        c === "{" ? { type: "object", offset: pos, length: 1, properties: [] } : { type: "array", offset: pos, length: 1, items: [] };
      pos++;
      return node;
    }
    if (c === '"') {
      const offset = pos;
      readString(false);
      return { type: "string", offset, length: pos - offset };
    }
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) {
      NUMBER.lastIndex = pos;
      const m = NUMBER.exec(text);
      if (!m || m[0] === "-") throw new ScanError("Invalid number", pos);
      const offset = pos;
      pos += m[0].length;
      const next = text[pos];
      if (next !== undefined && /[-0-9.eE+]/.test(next)) throw new ScanError("Invalid number", offset);
      return { type: "number", offset, length: pos - offset };
    }
    for (const [word, type] of LITERALS) {
      if (text.startsWith(word, pos)) {
        const offset = pos;
        pos += word.length;
        return { type, offset, length: word.length };
      }
    }
    throw unexpected("expected a JSON value");
  };

  /** Reads `"key" :` at pos and remembers the property that the next value belongs to. */
  const readKey = (object: JsonObjectNode): void => {
    if (text[pos] !== '"') {
      throw text[pos] === "}"
        ? new ScanError("Trailing comma before '}'", pos)
        : unexpected("expected a property name in double quotes");
    }
    const keyOffset = pos;
    const key = readString(true);
    const property: JsonPropertyNode = { key, keyOffset, keyLength: pos - keyOffset };
    object.properties.push(property);
    skipWs();
    if (text[pos] !== ":") throw unexpected("expected ':' after the property name");
    pos++;
    pendingProperty = property;
  };

  const attach = (node: JsonNode): void => {
    const parent = stack[stack.length - 1];
    if (!parent) root = node;
    else if (parent.type === "array") parent.items.push(node);
    else if (pendingProperty) {
      pendingProperty.value = node;
      pendingProperty = undefined;
    }
  };

  try {
    skipWs();
    if (pos >= text.length) throw new ScanError("Empty document: expected a JSON value", pos);
    // Each turn reads one value, then closes every container that ends right after it.
    for (;;) {
      skipWs();
      const node = readValue();
      attach(node);
      let justOpened = node.type === "object" || node.type === "array";
      if (justOpened) stack.push(node as Container);
      for (;;) {
        const top = stack[stack.length - 1];
        skipWs();
        if (!top) {
          if (pos < text.length) throw unexpected("expected the end of the document after the JSON value");
          return { root: root! };
        }
        const close = top.type === "object" ? "}" : "]";
        if (text[pos] === close) {
          pos++;
          top.length = pos - top.offset;
          stack.pop();
          justOpened = false;
          continue;
        }
        if (justOpened) {
          if (top.type === "object") readKey(top);
          break;
        }
        if (text[pos] !== ",") {
          const what = top.type === "object" ? "a property value" : "an array element";
          throw unexpected(`expected ',' or '${close}' after ${what}`);
        }
        pos++;
        skipWs();
        if (top.type === "object") readKey(top);
        else if (text[pos] === "]") throw new ScanError("Trailing comma before ']'", pos);
        break;
      }
    }
  } catch (err) {
    if (!(err instanceof ScanError)) throw err;
    // Open containers end where the error is, so the partial tree stays locatable.
    const end = Math.min(Math.max(pos, err.offset), text.length);
    for (const open of stack) open.length = Math.max(1, end - open.offset);
    return { ...(root ? { root } : {}), error: { message: err.message, offset: err.offset } };
  }
}

const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};
