import { arrayIndex, isJsonObject, JsonPointerSyntaxError, parsePointer } from "../json/index.ts";

/** A `$ref` followed to its schema, or the plain reason it could not be. */
export type RefTarget =
  | { readonly ok: true; readonly schema: Record<string, unknown> | boolean; readonly name: string }
  | { readonly ok: false; readonly reason: string };

/** Objects visited while indexing `$id` and `$anchor`; a schema larger than this keeps the rest unindexed. */
const MAX_INDEXED = 20_000;
const MAX_INDEX_DEPTH = 64;

const idBase = (id: string): string => {
  const hash = id.indexOf("#");
  return hash < 0 ? id : id.slice(0, hash);
};

/**
 * Resolves the references of one schema document: JSON pointers ("#/$defs/x", draft-07
 * "#/definitions/x"), anchors ("#name" from `$anchor` or a draft-07 `$id: "#name"`), and ids
 * embedded in the document. Anything else is remote and never fetched.
 */
export class RefResolver {
  readonly #root: unknown;
  readonly #rootBase: string;
  readonly #anchors = new Map<string, Record<string, unknown>>();
  readonly #ids = new Map<string, Record<string, unknown>>();

  constructor(root: unknown) {
    this.#root = root;
    this.#rootBase = isJsonObject(root) && typeof root.$id === "string" ? idBase(root.$id) : "";
    this.#index(root);
  }

  resolve(ref: string): RefTarget {
    let local = ref;
    if (this.#rootBase !== "" && ref.startsWith(this.#rootBase)) local = ref.slice(this.#rootBase.length);
    if (local === "" || local === "#") return this.#found(this.#root, "root", ref);
    if (local.startsWith("#/")) return this.#pointer(this.#root, local.slice(1), ref);
    if (local.startsWith("#")) {
      const anchored = this.#anchors.get(local.slice(1));
      return anchored ? { ok: true, schema: anchored, name: local.slice(1) } : { ok: false, reason: `the reference "${ref}" names an anchor this schema does not define` };
    }
    const base = idBase(local);
    const embedded = this.#ids.get(base);
    if (!embedded) return { ok: false, reason: `the reference "${ref}" points outside this schema, and remote schemas are not fetched` };
    const fragment = local.slice(base.length);
    if (fragment === "" || fragment === "#") return { ok: true, schema: embedded, name: base };
    return this.#pointer(embedded, fragment.slice(1), ref);
  }

  #pointer(from: unknown, encoded: string, ref: string): RefTarget {
    let tokens: string[];
    try {
      tokens = parsePointer(decodeURIComponent(encoded));
    } catch (error) {
      if (error instanceof URIError || error instanceof JsonPointerSyntaxError) return { ok: false, reason: `the reference "${ref}" is not a valid JSON pointer` };
      throw error;
    }
    let at = from;
    for (const token of tokens) {
      if (Array.isArray(at)) {
        const index = arrayIndex(token);
        at = index === undefined ? undefined : at[index];
      } else if (isJsonObject(at) && Object.hasOwn(at, token)) {
        at = at[token];
      } else {
        at = undefined;
      }
      if (at === undefined) return { ok: false, reason: `the reference "${ref}" names nothing in this schema` };
    }
    return this.#found(at, tokens.at(-1) ?? "root", ref);
  }

  #found(schema: unknown, name: string, ref: string): RefTarget {
    if (isJsonObject(schema) || typeof schema === "boolean") return { ok: true, schema, name };
    return { ok: false, reason: `the reference "${ref}" does not name a schema` };
  }

  // Iterative and bounded: a hostile document can be neither too deep nor too large to index.
  #index(root: unknown): void {
    const stack: { value: unknown; depth: number }[] = [{ value: root, depth: 0 }];
    let visited = 0;
    while (stack.length > 0 && visited < MAX_INDEXED) {
      const { value, depth } = stack.pop() as { value: unknown; depth: number };
      if (depth > MAX_INDEX_DEPTH) continue;
      if (Array.isArray(value)) {
        for (const item of value) if (typeof item === "object" && item !== null) stack.push({ value: item, depth: depth + 1 });
        continue;
      }
      if (!isJsonObject(value)) continue;
      visited++;
      if (typeof value.$anchor === "string") this.#anchors.set(value.$anchor, value);
      if (typeof value.$id === "string" && value !== root) {
        if (value.$id.startsWith("#")) this.#anchors.set(value.$id.slice(1), value);
        else this.#ids.set(idBase(value.$id), value);
      }
      // Inside `const`, `enum`, `default` and `examples` are data, not schemas.
      for (const [key, child] of Object.entries(value)) {
        if (key === "const" || key === "enum" || key === "default" || key === "examples") continue;
        if (typeof child === "object" && child !== null) stack.push({ value: child, depth: depth + 1 });
      }
    }
  }
}
