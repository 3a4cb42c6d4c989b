import { isJsonObject } from "../json/index.ts";
import type { ChoiceNode, FormNode, FormPath, NumberNode } from "./form-model.ts";
import { copyObject, putOwn } from "./json-values.ts";
import { pickVariant } from "./variant-match.ts";

/** Items `initialValue` creates for a `minItems`, at most. */
const MAX_INITIAL_ITEMS = 100;

const cloneJson = (value: unknown): unknown => (value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown));

function firstNumber(node: NumberNode): number {
  let n = node.minimum ?? (node.exclusiveMinimum === undefined ? 0 : node.integer ? Math.floor(node.exclusiveMinimum) + 1 : node.exclusiveMinimum + 1);
  if (node.integer) n = Math.ceil(n);
  if (node.maximum !== undefined && n > node.maximum) n = node.maximum;
  return n;
}

/**
 * The value a field starts with: its default, else the simplest value of its kind. Objects hold
 * their required and defaulted members; an editor-only field without a default has none.
 */
export function initialValue(node: FormNode): unknown {
  if (node.hasDefault) return cloneJson(node.default);
  switch (node.kind) {
    case "string":
      return "";
    case "number":
      return firstNumber(node);
    case "boolean":
      return false;
    case "null":
      return null;
    case "enum":
      return cloneJson(node.options[0]?.value);
    case "object": {
      const out: Record<string, unknown> = {};
      for (const property of node.properties) {
        if (!property.required && !property.node.hasDefault) continue;
        const value = initialValue(property.node);
        if (value !== undefined) putOwn(out, property.name, value);
      }
      return out;
    }
    case "array":
      return Array.from({ length: Math.min(node.minItems ?? 0, MAX_INITIAL_ITEMS) }, () => initialValue(node.items) ?? null);
    case "choice":
      return node.variants[0] ? initialValue(node.variants[0].node) : undefined;
    case "editor":
      return undefined;
  }
}

/** Adds what is missing: absent required or defaulted members get their initial value; nothing present changes. */
export function fillDefaults(node: FormNode, value: unknown): unknown {
  if (value === undefined) return initialValue(node);
  if (node.kind === "choice") {
    const variant = node.variants[pickVariant(node, value).index];
    return variant ? fillDefaults(variant.node, value) : value;
  }
  if (node.kind === "array" && Array.isArray(value)) return value.map((item) => fillDefaults(node.items, item));
  if (node.kind !== "object" || !isJsonObject(value)) return value;
  const out = copyObject(value);
  for (const property of node.properties) {
    if (Object.hasOwn(out, property.name)) putOwn(out, property.name, fillDefaults(property.node, out[property.name]));
    else if (property.required || property.node.hasDefault) {
      const initial = initialValue(property.node);
      if (initial !== undefined) putOwn(out, property.name, initial);
    }
  }
  return out;
}

/** The value at a path, or undefined where the path leads nowhere. */
export function getAt(root: unknown, path: FormPath): unknown {
  let at = root;
  for (const step of path) {
    if (typeof step === "number") at = Array.isArray(at) ? at[step] : undefined;
    else at = isJsonObject(at) && Object.hasOwn(at, step) ? at[step] : undefined;
    if (at === undefined) return undefined;
  }
  return at;
}

/**
 * A copy of `root` with `value` at `path`; containers missing on the way are created, everything
 * else (members the schema does not know included) is kept.
 */
export function setAt(root: unknown, path: FormPath, value: unknown): unknown {
  const [step, ...rest] = path;
  if (step === undefined) return value;
  if (typeof step === "number") {
    const list = Array.isArray(root) ? [...(root as unknown[])] : [];
    const index = Math.min(Math.max(0, step), list.length);
    list[index] = setAt(list[index], rest, value);
    return list;
  }
  const object = isJsonObject(root) ? copyObject(root) : {};
  putOwn(object, step, setAt(Object.hasOwn(object, step) ? object[step] : undefined, rest, value));
  return object;
}

/** A copy of `root` without the member or item at `path`; unchanged when there is none. */
export function removeAt(root: unknown, path: FormPath): unknown {
  const [step, ...rest] = path;
  if (step === undefined) return undefined;
  if (typeof step === "number") {
    if (!Array.isArray(root) || step < 0 || step >= root.length) return root;
    const inner = rest.length === 0 ? undefined : removeAt(root[step], rest);
    if (rest.length > 0 && inner === root[step]) return root;
    const list = [...(root as unknown[])];
    if (rest.length === 0) list.splice(step, 1);
    else list[step] = inner;
    return list;
  }
  if (!isJsonObject(root) || !Object.hasOwn(root, step)) return root;
  const inner = rest.length === 0 ? undefined : removeAt(root[step], rest);
  if (rest.length > 0 && inner === root[step]) return root;
  const object = copyObject(root);
  if (rest.length === 0) delete object[step];
  else putOwn(object, step, inner);
  return object;
}

/** A copy of `root` with `item` inserted into the array at `path` (created when absent), at `index` or the end. */
export function insertItem(root: unknown, path: FormPath, item: unknown, index?: number): unknown {
  const current = getAt(root, path);
  const list = Array.isArray(current) ? [...(current as unknown[])] : [];
  list.splice(index === undefined ? list.length : Math.min(Math.max(0, index), list.length), 0, item);
  return setAt(root, path, list);
}

/** A copy of `root` with the array item at `from` moved to `to`; unchanged when either is out of range. */
export function moveItem(root: unknown, path: FormPath, from: number, to: number): unknown {
  const current = getAt(root, path);
  if (!Array.isArray(current) || from < 0 || to < 0 || from >= current.length || to >= current.length || from === to) return root;
  const list = [...(current as unknown[])];
  const [item] = list.splice(from, 1);
  list.splice(to, 0, item);
  return setAt(root, path, list);
}

/**
 * The value after switching a union to another variant: that variant's initial value, keeping the
 * old object's members the new variant also declares (constants aside) and members neither declares.
 */
export function switchVariant(node: ChoiceNode, value: unknown, to: number): unknown {
  const target = node.variants[to]?.node;
  if (!target) return value;
  const fresh = initialValue(target);
  if (target.kind !== "object" || !isJsonObject(fresh) || !isJsonObject(value)) return fresh;
  const declaredElsewhere = new Set(node.variants.flatMap((v) => (v.node.kind === "object" ? v.node.properties.map((p) => p.name) : [])));
  const out = copyObject(fresh);
  for (const [key, member] of Object.entries(value)) {
    const own = target.properties.find((p) => p.name === key);
    if (own ? own.node.kind === "enum" && own.node.isConst : declaredElsewhere.has(key)) continue;
    putOwn(out, key, member);
  }
  return out;
}

/** The arguments as the editor shows them after a form edit: pretty JSON, two spaces. */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value === undefined ? {} : value, null, 2);
}
