import { BLOCK_SPECS, BODY_SPECS, GEN1_BLOCK_SPECS, headerSpec, type Rule, type Spec } from "./go-spec.ts";
import { normalizeGoTime } from "./go-time.ts";
import { compareGoStrings, FiskEncodeError, goCompact, goString, valueText } from "./json-text.ts";
import type { Route } from "./protocol-ids.ts";

/**
 * A message as Go's encoding/json writes it from fisk-ai's structs: fields in declaration order,
 * omitempty where Go has it, maps sorted, HTML characters escaped. Fields the struct does not
 * declare are dropped, as a Go peer drops them. A value Go could not hold is refused.
 */

const GO_ZERO_TIME = "0001-01-01T00:00:00Z";
const GO_MAP = { go: true, sortKeys: true } as const;

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const absent = (v: unknown): boolean => v === undefined || v === null;

function expect(ok: boolean, path: string, what: string): void {
  if (!ok) throw new FiskEncodeError(`${path} must be ${what} to be written as Go writes it`);
}

function intText(v: unknown, path: string): string {
  expect(typeof v === "number" && Number.isInteger(v), path, "an integer");
  return BigInt(v as number).toString();
}

/** The field's JSON text, or null when Go leaves it out. */
function fieldText(rule: Rule, v: unknown, path: string, sorted: boolean): string | null {
  switch (rule.t) {
    case "string":
      if (absent(v)) return rule.always ? '""' : null;
      expect(typeof v === "string", path, "a string");
      return v === "" && !rule.always ? null : goString(v as string);
    case "bool":
      if (absent(v)) return rule.always ? "false" : null;
      expect(typeof v === "boolean", path, "a boolean");
      return v === false && !rule.always ? null : String(v);
    case "int":
      if (absent(v)) return rule.always ? "0" : null;
      return v === 0 && !rule.always ? null : intText(v, path);
    case "pointer":
      if (absent(v)) return null;
      expect(typeof v === "boolean" || typeof v === "string", path, "a boolean or a string");
      return typeof v === "string" ? goString(v) : String(v);
    case "time": {
      if (absent(v)) return goString(GO_ZERO_TIME);
      expect(typeof v === "string", path, "an RFC 3339 string");
      const normal = normalizeGoTime(v as string);
      expect(normal !== null, path, "RFC 3339 (Go's decoder refuses anything else)");
      return goString(normal!);
    }
    case "strings": {
      if (absent(v)) return null;
      expect(Array.isArray(v) && v.every((s) => typeof s === "string"), path, "an array of strings");
      const items = v as string[];
      return items.length === 0 ? null : `[${items.map(goString).join(",")}]`;
    }
    case "struct":
      if (absent(v)) return rule.always ? structText(rule.spec, {}, path, sorted) : null;
      expect(isObj(v), path, "an object");
      return structText(rule.spec, v as Obj, path, sorted);
    case "omitzero": {
      if (absent(v)) return null;
      expect(isObj(v), path, "an object");
      const text = structText(rule.spec, v as Obj, path, sorted);
      return text === "{}" ? null : text;
    }
    case "list": {
      if (absent(v)) return null;
      expect(Array.isArray(v), path, "an array");
      const items = v as unknown[];
      if (items.length === 0) return null;
      return `[${items.map((item, i) => {
        expect(isObj(item), `${path}[${i}]`, "an object");
        return structText(rule.spec, item as Obj, `${path}[${i}]`, sorted);
      }).join(",")}]`;
    }
    case "map":
      return absent(v) ? null : valueText(v, GO_MAP, path);
  }
}

function entries(spec: Spec, obj: Obj, path: string, sorted: boolean): [string, string][] {
  const out: [string, string][] = [];
  for (const [key, rule] of spec) {
    const text = fieldText(rule, Object.hasOwn(obj, key) ? obj[key] : undefined, `${path}.${key}`, sorted);
    if (text !== null) out.push([key, text]);
  }
  return out;
}

function join(list: [string, string][], sorted: boolean): string {
  if (sorted) list.sort((a, b) => compareGoStrings(a[0], b[0]));
  return `{${list.map(([k, v]) => `${goString(k)}:${v}`).join(",")}}`;
}

function structText(spec: Spec, obj: Obj, path: string, sorted: boolean): string {
  return join(entries(spec, obj, path, sorted), sorted);
}

function rawBlockText(message: Obj): string {
  const raw = message.rawBlock;
  if (typeof raw === "string") {
    assertJson(raw);
    return goCompact(raw);
  }
  const block = message.block;
  expect(isObj(block), "block", "an object (the event carries no block)");
  return valueText(block, { go: true, sortKeys: false }, "block");
}

export function assertJson(raw: string): void {
  try {
    JSON.parse(raw);
  } catch {
    throw new FiskEncodeError("rawBlock is not JSON text");
  }
}

function blockText(route: Route, message: Obj): string {
  if (route.unknownEvent) return rawBlockText(message);
  const block = message.block;
  expect(isObj(block), "block", "an object (the event carries no block)");
  const obj = block as Obj;
  if (route.generation === "gen1") {
    // Gen 1 marshals a block through a map: sorted keys, `type` among them.
    const spec = typeof obj.type === "string" ? GEN1_BLOCK_SPECS[obj.type] : undefined;
    if (!spec) return valueText(obj, GO_MAP, "block");
    const list = entries(spec, obj, "block", true);
    list.push(["type", goString(obj.type as string)]);
    return join(list, true);
  }
  return structText(BLOCK_SPECS[route.kind.slice("event.".length)]!, obj, "block", false);
}

export function goMessageText(route: Route, message: Obj): string {
  const list = entries(headerSpec(route.generation === "gen1"), message, "message", false);
  if (route.kind.startsWith("event")) {
    list.push(["block", blockText(route, message)]);
  } else {
    const spec = BODY_SPECS[route.kind];
    if (!spec) throw new FiskEncodeError(`no Go struct is known for ${route.kind}`);
    list.push(...entries(spec, message, "message", false));
  }
  return join(list, false);
}
