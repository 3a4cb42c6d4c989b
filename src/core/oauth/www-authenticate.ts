/**
 * The WWW-Authenticate header (RFC 9110 §11.6.1): one or more challenges, each a scheme and
 * either a token68 or comma-separated auth-params whose values are tokens or quoted strings.
 * Parsing is forgiving where servers are sloppy (spaces around '=', a stray comma) and strict
 * where it matters: an unterminated quoted string ends the header instead of running on.
 */

export interface Challenge {
  /** Lower-cased, e.g. "bearer". */
  readonly scheme: string;
  /** Parameter names lower-cased; the first occurrence of a name wins. */
  readonly params: Readonly<Record<string, string>>;
  readonly token68?: string;
}

const TOKEN = /[!#$%&'*+.^_`|~0-9A-Za-z-]/;
const TOKEN68 = /[A-Za-z0-9\-._~+/]/;

class Reader {
  i = 0;
  readonly s: string;
  constructor(s: string) {
    this.s = s;
  }
  get done(): boolean {
    return this.i >= this.s.length;
  }
  peek(): string {
    return this.s[this.i] ?? "";
  }
  skipSpace(): void {
    while (this.peek() === " " || this.peek() === "\t") this.i++;
  }
  skipSeparators(): void {
    while (this.peek() === " " || this.peek() === "\t" || this.peek() === ",") this.i++;
  }
  token(): string {
    const start = this.i;
    while (!this.done && TOKEN.test(this.peek())) this.i++;
    return this.s.slice(start, this.i);
  }
  quoted(): string {
    // At the opening quote.
    this.i++;
    let out = "";
    while (!this.done) {
      const c = this.peek();
      this.i++;
      if (c === '"') return out;
      if (c === "\\" && !this.done) {
        out += this.peek();
        this.i++;
      } else out += c;
    }
    return out;
  }
}

/** Is the text at the reader a `name =` (an auth-param) rather than a new scheme or a token68? */
function atParam(r: Reader): boolean {
  const save = r.i;
  const name = r.token();
  r.skipSpace();
  const is = name !== "" && r.peek() === "=" && r.s[r.i + 1] !== "=";
  r.i = save;
  return is;
}

function readToken68(r: Reader): string | undefined {
  const save = r.i;
  while (!r.done && TOKEN68.test(r.peek())) r.i++;
  while (r.peek() === "=") r.i++;
  const value = r.s.slice(save, r.i);
  r.skipSpace();
  if (value !== "" && (r.done || r.peek() === ",")) return value;
  r.i = save;
  return undefined;
}

/** Every challenge in the header, in order; an empty list when there is none to read. */
export function parseWwwAuthenticate(value: string): Challenge[] {
  const r = new Reader(value);
  const out: Challenge[] = [];
  r.skipSeparators();
  while (!r.done) {
    const scheme = r.token();
    if (scheme === "") {
      // Not a challenge: skip to the next comma and try again.
      while (!r.done && r.peek() !== ",") r.i++;
      r.skipSeparators();
      continue;
    }
    const params: Record<string, string> = {};
    let token68: string | undefined;
    r.skipSpace();
    if (!r.done && r.peek() !== "," && !atParam(r)) token68 = readToken68(r);
    for (;;) {
      r.skipSeparators();
      if (r.done || !atParam(r)) break;
      const name = r.token().toLowerCase();
      r.skipSpace();
      r.i++; // '='
      r.skipSpace();
      const v = r.peek() === '"' ? r.quoted() : r.token();
      if (!(name in params)) params[name] = v;
    }
    out.push({ scheme: scheme.toLowerCase(), params, ...(token68 !== undefined ? { token68 } : {}) });
    r.skipSeparators();
  }
  return out;
}

/** The Bearer challenge of a header, if it has one. */
export function bearerChallenge(value: string | undefined): Challenge | undefined {
  if (value === undefined) return undefined;
  return parseWwwAuthenticate(value).find((c) => c.scheme === "bearer");
}

/** Space-separated scopes (RFC 6749 §3.3) as a list without empties or repeats. */
export function scopeList(value: string | undefined): string[] {
  if (value === undefined) return [];
  return [...new Set(value.split(/[ \t]+/).filter((s) => s !== ""))];
}
