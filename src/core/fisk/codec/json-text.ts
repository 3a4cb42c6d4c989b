/**
 * JSON text the way Go's encoding/json writes it, and a plain compact writer for the default
 * mode. Both walk values with an explicit stack: a decoded message may nest 10,000 levels,
 * which overflows JSON.stringify.
 */

export class FiskEncodeError extends Error {
  override readonly name = "FiskEncodeError";
}

const HEX = "0123456789abcdef";

/**
 * A string as Go writes it: `<`, `>`, `&`, U+2028 and U+2029 escaped, `\b \f \n \r \t` short
 * forms, other controls as `\u00xx`, and a lone surrogate (invalid UTF-8 on the wire) as `\ufffd`.
 */
export function goString(value: string): string {
  let out = '"';
  let chunk = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    let esc: string | null = null;
    if (c < 0x20) {
      esc = c === 8 ? "\\b" : c === 12 ? "\\f" : c === 10 ? "\\n" : c === 13 ? "\\r" : c === 9 ? "\\t" : `\\u00${HEX[c >> 4]}${HEX[c & 15]}`;
    } else if (c === 34) esc = '\\"';
    else if (c === 92) esc = "\\\\";
    else if (c === 60) esc = "\\u003c";
    else if (c === 62) esc = "\\u003e";
    else if (c === 38) esc = "\\u0026";
    else if (c === 0x2028) esc = "\\u2028";
    else if (c === 0x2029) esc = "\\u2029";
    else if (c >= 0xd800 && c <= 0xdfff) {
      if (c <= 0xdbff && (value.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        i++;
        continue;
      }
      esc = "\\ufffd";
    }
    if (esc === null) continue;
    out += value.slice(chunk, i) + esc;
    chunk = i + 1;
  }
  return out + value.slice(chunk) + '"';
}

/** Go's string order: UTF-8 bytes, which is code point order (not UTF-16 unit order). */
export function compareGoStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

function numberText(value: number, go: boolean, path: string): string {
  if (!Number.isFinite(value)) throw new FiskEncodeError(`${path}: ${value} has no JSON form`);
  // Go writes a float64 negative zero as -0; JSON.stringify drops the sign.
  if (go && Object.is(value, -0)) return "-0";
  return JSON.stringify(value);
}

export interface ValueTextOptions {
  /** Go escaping and Go number forms. */
  readonly go: boolean;
  /** Object keys in Go's map order (sorted), at every level. */
  readonly sortKeys: boolean;
}

type Frame =
  | { readonly kind: "array"; readonly items: readonly unknown[]; index: number }
  | { readonly kind: "object"; readonly obj: Record<string, unknown>; readonly keys: string[]; index: number; wrote: boolean };

function scalarText(value: unknown, options: ValueTextOptions, path: string): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return options.go ? goString(value) : JSON.stringify(value);
    case "number":
      return numberText(value, options.go, path);
    case "boolean":
      return value ? "true" : "false";
    default:
      throw new FiskEncodeError(`${path}: a ${typeof value} has no JSON form`);
  }
}

/** Any JSON value as compact text. Undefined object members are skipped, as JSON.stringify does. */
export function valueText(value: unknown, options: ValueTextOptions, path = "value"): string {
  const out: string[] = [];
  const stack: Frame[] = [];
  const open = new Set<unknown>();
  const begin = (v: unknown): void => {
    if (typeof v !== "object" || v === null) {
      out.push(scalarText(v, options, path));
      return;
    }
    if (open.has(v)) throw new FiskEncodeError(`${path}: the value refers to itself`);
    open.add(v);
    if (Array.isArray(v)) {
      out.push("[");
      stack.push({ kind: "array", items: v, index: 0 });
      return;
    }
    const obj = v as Record<string, unknown>;
    const keys = Object.keys(obj);
    if (options.sortKeys) keys.sort(compareGoStrings);
    out.push("{");
    stack.push({ kind: "object", obj, keys, index: 0, wrote: false });
  };
  begin(value);
  for (let top = stack.at(-1); top; top = stack.at(-1)) {
    if (top.kind === "array") {
      if (top.index < top.items.length) {
        if (top.index > 0) out.push(",");
        const item = top.items[top.index++];
        begin(item === undefined ? null : item);
        continue;
      }
      out.push("]");
      open.delete(top.items);
    } else {
      let pushed = false;
      while (top.index < top.keys.length) {
        const key = top.keys[top.index++]!;
        const member = top.obj[key];
        if (member === undefined) continue;
        out.push(`${top.wrote ? "," : ""}${scalarText(key, options, path)}:`);
        top.wrote = true;
        begin(member);
        pushed = true;
        break;
      }
      if (pushed) continue;
      out.push("}");
      open.delete(top.obj);
    }
    stack.pop();
  }
  return out.join("");
}

/**
 * Raw JSON text compacted as Go compacts a json.RawMessage: whitespace outside strings removed,
 * `<`, `>`, `&`, U+2028 and U+2029 escaped; nothing else in the text changes.
 */
export function goCompact(raw: string): string {
  let out = "";
  let chunk = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    let replace: string | null = null;
    if (inString) {
      if (c === 92) {
        i++;
        continue;
      }
      if (c === 34) inString = false;
      else if (c === 60) replace = "\\u003c";
      else if (c === 62) replace = "\\u003e";
      else if (c === 38) replace = "\\u0026";
      else if (c === 0x2028) replace = "\\u2028";
      else if (c === 0x2029) replace = "\\u2029";
    } else if (c === 34) inString = true;
    else if (c === 32 || c === 9 || c === 10 || c === 13) replace = "";
    if (replace === null) continue;
    out += raw.slice(chunk, i) + replace;
    chunk = i + 1;
  }
  return out + raw.slice(chunk);
}
