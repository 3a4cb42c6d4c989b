/**
 * A copy of a pack's schema document for the yes/no validators, with every `$ref` to a definition
 * that does not reach itself replaced by that definition's body. ajv compiles each referenced
 * definition to a function of its own and calls it per use; for a small message most of the time
 * goes to those calls. A recursive definition keeps its `$ref` (it cannot be written out), as does
 * everything when the document resolves references other than by plain name in its container.
 * The verdict is the same: a `$ref` is written out only when its siblings are annotations (ajv
 * applies a `$ref`'s asserting siblings in every draft, draft-07 included).
 */

/** Keywords that change how references resolve: a document using one is left as it is. */
const RESOLUTION_KEYWORDS: ReadonlySet<string> = new Set(["$id", "$anchor", "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor"]);

/** Siblings of a `$ref` that assert nothing, so the node can become the definition's body. */
const ANNOTATIONS: ReadonlySet<string> = new Set(["$ref", "description", "title", "$comment", "examples", "default", "deprecated", "readOnly", "writeOnly"]);

/** A body larger than this (in JSON characters) keeps its `$ref`: the generated code would grow past what it saves. */
const MAX_INLINED_CHARS = 1500;

type Json = unknown;

function namesOf(node: Json, prefix: string, into: Set<string>, state: { portable: boolean }): void {
  if (Array.isArray(node)) {
    for (const item of node) namesOf(item, prefix, into, state);
    return;
  }
  if (typeof node !== "object" || node === null) return;
  for (const [key, value] of Object.entries(node)) {
    if (RESOLUTION_KEYWORDS.has(key)) state.portable = false;
    if (SCHEMA_VALUED_KEYS_SKIP.has(key)) continue;
    if (key === "$ref" && typeof value === "string") {
      const name = refName(value, prefix);
      if (name === undefined) state.portable = false;
      else into.add(name);
    } else namesOf(value, prefix, into, state);
  }
}

function refName(ref: string, prefix: string): string | undefined {
  if (!ref.startsWith(prefix)) return undefined;
  const raw = ref.slice(prefix.length);
  return raw.includes("/") ? undefined : raw.replaceAll("~1", "/").replaceAll("~0", "~");
}

/** The definitions that reach themselves through `$ref`s (directly or through others). */
function recursiveNames(edges: ReadonlyMap<string, ReadonlySet<string>>): Set<string> {
  const recursive = new Set<string>();
  for (const start of edges.keys()) {
    const seen = new Set<string>();
    const todo = [...(edges.get(start) ?? [])];
    while (todo.length > 0) {
      const name = todo.pop()!;
      if (name === start) {
        recursive.add(start);
        break;
      }
      if (seen.has(name)) continue;
      seen.add(name);
      todo.push(...(edges.get(name) ?? []));
    }
  }
  return recursive;
}

/**
 * The document with non-recursive local `$ref`s written out, or the document itself when it
 * cannot be (a resolution keyword, a reference outside its container, no container).
 */
export function inlineRefs(document: Readonly<Record<string, unknown>>, container: "definitions" | "$defs"): Readonly<Record<string, unknown>> {
  const defs = document[container];
  if (typeof defs !== "object" || defs === null || Array.isArray(defs)) return document;
  const prefix = `#/${container}/`;
  const state = { portable: true };
  const edges = new Map<string, Set<string>>();
  for (const [name, body] of Object.entries(defs as Record<string, Json>)) {
    const refs = new Set<string>();
    namesOf(body, prefix, refs, state);
    edges.set(name, refs);
  }
  for (const [key, value] of Object.entries(document)) if (key !== container) namesOf(value, prefix, new Set(), state);
  if (!state.portable) return document;
  for (const refs of edges.values()) for (const name of refs) if (!edges.has(name)) return document;
  const recursive = recursiveNames(edges);
  const done = new Map<string, Json>();

  const rewrite = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (typeof node !== "object" || node === null) return node;
    const record = node as Record<string, Json>;
    const ref = record.$ref;
    if (typeof ref === "string") {
      const name = refName(ref, prefix)!;
      const siblingsAssert = Object.keys(record).some((k) => !ANNOTATIONS.has(k));
      if (!recursive.has(name) && !siblingsAssert) {
        const body = bodyOf(name);
        if (body !== undefined) return body;
      }
    }
    const out: Record<string, Json> = {};
    for (const [key, value] of Object.entries(record)) out[key] = SCHEMA_VALUED_KEYS_SKIP.has(key) ? value : rewrite(value);
    return out;
  };
  const bodyOf = (name: string): Json | undefined => {
    if (done.has(name)) return done.get(name);
    const body = rewrite((defs as Record<string, Json>)[name]);
    const fits = JSON.stringify(body).length <= MAX_INLINED_CHARS;
    done.set(name, fits ? body : undefined);
    return fits ? body : undefined;
  };

  const inlinedDefs: Record<string, Json> = {};
  for (const name of Object.keys(defs)) inlinedDefs[name] = recursive.has(name) ? rewrite((defs as Record<string, Json>)[name]) : (bodyOf(name) ?? rewrite((defs as Record<string, Json>)[name]));
  return { ...document, [container]: inlinedDefs };
}

/** Keywords whose values are data, not schemas: a `$ref` key inside them is not a reference. */
const SCHEMA_VALUED_KEYS_SKIP: ReadonlySet<string> = new Set(["const", "enum", "default", "examples"]);
