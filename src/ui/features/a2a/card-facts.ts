import type { CardInterface } from "../../../core/a2a/index.ts";
import { DIALECT_LABELS } from "../../../core/a2a/index.ts";
import { isJsonObject } from "../../../core/json/index.ts";
import type { Verdict } from "../../../core/validation/types.ts";

/**
 * What the card view shows, read from a card of any dialect. A card off the wire is not trusted
 * to have the right shapes: every reader tolerates missing or mistyped members.
 */

type Obj = Record<string, unknown>;
const str = (o: Obj, k: string): string | undefined => (typeof o[k] === "string" ? (o[k] as string) : undefined);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

export interface SkillFact {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly tags: readonly string[];
  readonly examples: readonly string[];
  readonly security: readonly string[];
}

export function skillsOf(card: unknown): SkillFact[] {
  if (!isJsonObject(card) || !Array.isArray(card.skills)) return [];
  return card.skills.filter(isJsonObject).map((s, i) => ({
    id: str(s, "id") ?? `#${i + 1}`,
    name: str(s, "name") ?? str(s, "id") ?? `skill ${i + 1}`,
    description: str(s, "description") ?? "",
    tags: strings(s.tags),
    examples: strings(s.examples),
    security: requirementsIn(s),
  }));
}

/** Each capability as the card states it; an absent one is not listed (undeclared is not false). */
export function capabilitiesOf(card: unknown): [string, string][] {
  if (!isJsonObject(card) || !isJsonObject(card.capabilities)) return [];
  return Object.entries(card.capabilities).map(([k, v]) => [k, Array.isArray(v) ? (v.length === 0 ? "none" : `${v.length} listed`) : typeof v === "object" && v !== null ? JSON.stringify(v) : String(v)]);
}

/** One line per security scheme: v0.2+ OpenAPI style, v1.0 oneof members, v0.1 authentication schemes. */
export function securitySchemesOf(card: unknown): [string, string][] {
  if (!isJsonObject(card)) return [];
  const out: [string, string][] = [];
  if (isJsonObject(card.securitySchemes)) {
    for (const [name, raw] of Object.entries(card.securitySchemes)) out.push([name, isJsonObject(raw) ? describeScheme(raw) : "not an object"]);
  }
  if (isJsonObject(card.authentication)) {
    const schemes = strings(card.authentication.schemes);
    out.push(["authentication (v0.1)", schemes.length > 0 ? schemes.join(", ") : "no schemes"]);
  }
  return out;
}

function describeScheme(s: Obj): string {
  const v1 = ["httpAuthSecurityScheme", "apiKeySecurityScheme", "oauth2SecurityScheme", "openIdConnectSecurityScheme", "mtlsSecurityScheme"].find((k) => isJsonObject(s[k]));
  const body = v1 ? (s[v1] as Obj) : s;
  const type = v1 ? v1.replace(/SecurityScheme$/, "") : (str(s, "type") ?? "unknown type");
  const bits = [type];
  const scheme = str(body, "scheme");
  if (scheme) bits.push(scheme);
  const where = str(body, "in") ?? str(body, "location");
  const name = str(body, "name");
  if (where || name) bits.push(`${name ?? "?"} in ${where ?? "?"}`);
  const oidc = str(body, "openIdConnectUrl");
  if (oidc) bits.push(oidc);
  if (isJsonObject(body.flows)) bits.push(`flows: ${Object.keys(body.flows).join(", ")}`);
  const desc = str(body, "description");
  return `${bits.join(" · ")}${desc ? ` — ${desc}` : ""}`;
}

/** Requirements in words: v0.x `security: [{name: scopes}]`, v1.0 `securityRequirements: [{schemes: {name: {list}}}]`. */
export function requirementsIn(o: unknown): string[] {
  if (!isJsonObject(o)) return [];
  const out: string[] = [];
  const scoped = (name: string, scopes: string[]) => (scopes.length > 0 ? `${name} (${scopes.join(", ")})` : name);
  if (Array.isArray(o.security)) {
    for (const r of o.security.filter(isJsonObject)) out.push(Object.entries(r).map(([n, s]) => scoped(n, strings(s))).join(" and ") || "none");
  }
  if (Array.isArray(o.securityRequirements)) {
    for (const r of o.securityRequirements.filter(isJsonObject)) {
      const schemes = isJsonObject(r.schemes) ? r.schemes : {};
      out.push(Object.entries(schemes).map(([n, s]) => scoped(n, isJsonObject(s) ? strings(s.list) : [])).join(" and ") || "none");
    }
  }
  return out;
}

export function providerOf(card: unknown): string | null {
  if (!isJsonObject(card) || !isJsonObject(card.provider)) return null;
  const org = str(card.provider, "organization") ?? "(no organization)";
  const url = str(card.provider, "url");
  return url ? `${org} (${url})` : org;
}

/** Each JWS signature's protected header, decoded when it is base64url JSON. */
export function signaturesOf(card: unknown): string[] {
  if (!isJsonObject(card) || !Array.isArray(card.signatures)) return [];
  return card.signatures.map((s, i) => {
    if (!isJsonObject(s)) return `#${i + 1}: not an object`;
    const header = decodeProtected(str(s, "protected"));
    const sig = str(s, "signature");
    return `#${i + 1}: ${header ?? "protected header not readable"}${sig ? `, signature of ${sig.length} characters` : ", no signature"}`;
  });
}

function decodeProtected(text: string | undefined): string | null {
  if (!text) return null;
  try {
    const json: unknown = JSON.parse(atob(text.replace(/-/g, "+").replace(/_/g, "/")));
    if (!isJsonObject(json)) return null;
    return ["alg", "kid", "typ", "jku"].flatMap((k) => (typeof json[k] === "string" ? [`${k} ${json[k] as string}`] : [])).join(", ") || JSON.stringify(json);
  } catch {
    return null;
  }
}

export function interfaceLabel(i: CardInterface): string {
  return `${i.bindingName} · ${DIALECT_LABELS[i.dialect]} (${i.version}) · ${i.url}${i.tenant ? ` · tenant ${i.tenant}` : ""}${i.preferred ? " · preferred" : ""}${i.binding === undefined ? " · not spoken here" : ""}`;
}

export interface Summary {
  readonly tone: "ok" | "warn" | "bad";
  readonly text: string;
}

/** The engine's verdict in one line. */
export function verdictSummary(verdict: Verdict): Summary {
  const errors = verdict.issues.filter((i) => i.severity === "error").length;
  const warnings = verdict.issues.length - errors;
  const what = [verdict.packLabel, verdict.kindLabel].filter(Boolean).join(" · ");
  const warn = warnings > 0 ? `, ${warnings} warning(s)` : "";
  switch (verdict.status) {
    case "valid":
      return { tone: warnings > 0 ? "warn" : "ok", text: `valid ${what}${warn}` };
    case "error-response":
      return { tone: "warn", text: `a valid error response (${what})` };
    case "invalid":
      return { tone: "bad", text: `invalid ${what}: ${errors} error(s)${warn}` };
    case "unrecognised":
      return { tone: "bad", text: "not recognised as an A2A message" };
    case "unparseable":
      return { tone: "bad", text: "not parseable as JSON" };
  }
}

/** JSON with keys sorted at every level, so two cards line up member by member. */
export function sortedJson(value: unknown): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sort) : isJsonObject(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort(v[k])])) : v;
  return JSON.stringify(sort(value), null, 2);
}
