/**
 * RFC 6570 URI templates with string values: level 1 (`{var}`) and the operators of levels 2
 * and 3 (`+ # . / ; ? &`), plus the `:n` prefix modifier. Resource templates use these to name
 * their variables; the user fills each with a string, so lists and maps (level 4 explode) do not
 * arise and `*` is accepted but changes nothing for a string.
 */

/** How one operator renders its variables (RFC 6570 appendix A). */
interface Operator {
  readonly first: string;
  readonly sep: string;
  readonly named: boolean;
  readonly ifEmpty: string;
  /** True when reserved characters and pct-encoded triplets pass unencoded (`+` and `#`). */
  readonly reserved: boolean;
}

const SIMPLE: Operator = { first: "", sep: ",", named: false, ifEmpty: "", reserved: false };
const OPERATORS: Readonly<Record<string, Operator>> = {
  "+": { ...SIMPLE, reserved: true },
  "#": { ...SIMPLE, first: "#", reserved: true },
  ".": { ...SIMPLE, first: ".", sep: "." },
  "/": { ...SIMPLE, first: "/", sep: "/" },
  ";": { first: ";", sep: ";", named: true, ifEmpty: "", reserved: false },
  "?": { first: "?", sep: "&", named: true, ifEmpty: "=", reserved: false },
  "&": { first: "&", sep: "&", named: true, ifEmpty: "=", reserved: false },
};
/** Operators the RFC keeps for future extensions. */
const RESERVED_OPERATORS = new Set(["=", ",", "!", "@", "|"]);

const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*$/;
const UNRESERVED = /[A-Za-z0-9\-._~]/;
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;
const PCT_TRIPLET = /^%[0-9A-Fa-f]{2}/;

export interface TemplateVariable {
  readonly name: string;
  /** The operator of the (first) expression it appears in, "" for simple expansion. */
  readonly operator: string;
}

interface VarSpec {
  readonly name: string;
  readonly prefix: number | undefined;
}

interface Expression {
  readonly operator: string;
  readonly vars: readonly VarSpec[];
}

type Part = string | Expression;

export type TemplateParse = { readonly ok: true; readonly parts: readonly Part[] } | { readonly ok: false; readonly error: string };

function parseExpression(body: string, at: number): Expression | string {
  const head = body.charAt(0);
  if (RESERVED_OPERATORS.has(head)) return `The expression at character ${at + 1} uses the operator "${head}", which RFC 6570 reserves for future use.`;
  const operator = head in OPERATORS ? head : "";
  const list = operator === "" ? body : body.slice(1);
  const vars: VarSpec[] = [];
  for (const spec of list.split(",")) {
    const match = /^([^:*]*)(?::(\d{1,4})|(\*))?$/.exec(spec);
    const name = match?.[1] ?? "";
    if (!match || !VARNAME.test(name)) return `The expression at character ${at + 1} has a malformed variable ${JSON.stringify(spec)}.`;
    const prefix = match[2] === undefined ? undefined : Number(match[2]);
    if (prefix === 0) return `The variable ${name} has a prefix length of 0; it must be 1 to 9999.`;
    vars.push({ name, prefix });
  }
  return { operator, vars };
}

/** The template's literal text and expressions, or a plain sentence saying why it is malformed. */
export function parseTemplate(template: string): TemplateParse {
  const parts: Part[] = [];
  let index = 0;
  while (index < template.length) {
    const open = template.indexOf("{", index);
    const close = template.indexOf("}", index);
    if (close !== -1 && (open === -1 || close < open)) return { ok: false, error: `The template has a "}" without a matching "{" at character ${close + 1}.` };
    if (open === -1) {
      parts.push(template.slice(index));
      break;
    }
    if (open > index) parts.push(template.slice(index, open));
    const end = template.indexOf("}", open);
    const nested = template.indexOf("{", open + 1);
    if (end === -1 || (nested !== -1 && nested < end)) return { ok: false, error: `The "{" at character ${open + 1} is never closed.` };
    const expression = parseExpression(template.slice(open + 1, end), open);
    if (typeof expression === "string") return { ok: false, error: expression };
    parts.push(expression);
    index = end + 1;
  }
  return { ok: true, parts };
}

/** The variables a template names, each once, in order of first appearance; empty for a malformed template. */
export function templateVariables(template: string): TemplateVariable[] {
  const parsed = parseTemplate(template);
  if (!parsed.ok) return [];
  const seen = new Map<string, TemplateVariable>();
  for (const part of parsed.parts) {
    if (typeof part === "string") continue;
    for (const v of part.vars) if (!seen.has(v.name)) seen.set(v.name, { name: v.name, operator: part.operator });
  }
  return [...seen.values()];
}

function encode(value: string, reserved: boolean): string {
  let out = "";
  const chars = Array.from(value);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] as string;
    if (UNRESERVED.test(c) || (reserved && RESERVED.test(c))) out += c;
    else if (reserved && c === "%" && PCT_TRIPLET.test(chars.slice(i, i + 3).join(""))) out += c;
    else out += encodeURIComponent(c).replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  }
  return out;
}

function expandExpression(expression: Expression, values: Readonly<Record<string, string | undefined>>): string {
  const op = OPERATORS[expression.operator] ?? SIMPLE;
  const pieces: string[] = [];
  for (const v of expression.vars) {
    const value = values[v.name];
    if (value === undefined) continue;
    const cut = v.prefix === undefined ? value : Array.from(value).slice(0, v.prefix).join("");
    const encoded = encode(cut, op.reserved);
    if (!op.named) pieces.push(encoded);
    else pieces.push(encoded === "" ? `${v.name}${op.ifEmpty}` : `${v.name}=${encoded}`);
  }
  return pieces.length === 0 ? "" : op.first + pieces.join(op.sep);
}

export type Expansion = { readonly ok: true; readonly uri: string } | { readonly ok: false; readonly error: string };

/**
 * The URI a template names for these values. A variable left undefined is omitted, as the RFC
 * says; an empty string is a value (`{?q}` with "" gives `?q=`).
 */
export function expandTemplate(template: string, values: Readonly<Record<string, string | undefined>>): Expansion {
  const parsed = parseTemplate(template);
  if (!parsed.ok) return parsed;
  try {
    return { ok: true, uri: parsed.parts.map((part) => (typeof part === "string" ? part : expandExpression(part, values))).join("") };
  } catch {
    // encodeURIComponent refuses a lone surrogate, which no URI can carry.
    return { ok: false, error: "A value holds a broken character (an unpaired UTF-16 surrogate) that no URI can carry." };
  }
}
