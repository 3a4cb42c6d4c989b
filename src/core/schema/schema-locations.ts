import type { ErrorObject } from "ajv";
import { formatPointer } from "../json/index.ts";
import type { SchemaPack } from "../validation/types.ts";
import { definitionContainer, pointerTarget } from "./schema-document.ts";

/**
 * Where a pack document's schema errors lie, as pointers into the document. ajv writes an error's
 * schema path from the root of the function that found it: the whole path for a definition it
 * inlined, but "#/required" and the like inside a `$ref` target it compiled on its own, which
 * names no definition. The error's parent schema is an object of the document, so its place is
 * known; a `false` subschema, which has no parent object, is found from where the functions start.
 */
export class SchemaLocations {
  readonly #document: unknown;
  /** Where the document keeps its definitions. */
  readonly #container: string;
  /** Every schema object's pointer, first place found: a document parsed from JSON has one each. */
  readonly #pointers = new WeakMap<object, string>();
  /** By definition checked and path inside the function: where a `false` subschema lies, when one place fits. */
  readonly #falseSchemas = new Map<string, string | null>();

  constructor(pack: Pick<SchemaPack, "document" | "draft">) {
    this.#document = pack.document;
    this.#container = definitionContainer(pack.draft);
    const todo: [unknown, string][] = [[pack.document, ""]];
    for (let next = todo.pop(); next; next = todo.pop()) {
      const [node, pointer] = next;
      if (typeof node !== "object" || node === null) continue;
      if (!Array.isArray(node)) {
        if (this.#pointers.has(node)) continue;
        this.#pointers.set(node, pointer);
      }
      // Pushed in reverse, so the first place found is the first in document order.
      const entries = Object.entries(node);
      for (let i = entries.length - 1; i >= 0; i--) todo.push([entries[i]![1], pointer + formatPointer([entries[i]![0]])]);
    }
  }

  /** Rewrites the errors' schema paths in place (ajv makes fresh error objects on every call); `definition`: the one validated. */
  place(errors: ErrorObject[], definition: string): ErrorObject[] {
    for (const error of errors) error.schemaPath = this.pathOf(error, definition);
    return errors;
  }

  /**
   * The error's schema path as `#<pointer>/<keyword>`; `definition`: the one the validator was
   * compiled for. A path that cannot be placed is left as ajv wrote it.
   */
  pathOf(error: ErrorObject, definition: string): string {
    const tail = `/${error.keyword}`;
    const path = error.schemaPath;
    if (!path.startsWith("#") || !path.endsWith(tail)) return path;
    const parent: unknown = error.parentSchema;
    if (typeof parent === "object" && parent !== null) {
      const pointer = this.#pointers.get(parent);
      return pointer === undefined ? path : `#${pointer}${tail}`;
    }
    // A `false` subschema is its own parent and no object: found by its path from a function root.
    if (parent !== false) return path;
    const within = path.slice(1, path.length - tail.length);
    const placed = this.#falseSchema(formatPointer([this.#container, definition]), within);
    return placed === null ? path : `#${placed}${tail}`;
  }

  /**
   * The one place, among the checked definition and every `$ref` target it reaches, where the
   * path inside a function leads to a `false` subschema; null when none or several do.
   */
  #falseSchema(top: string, within: string): string | null {
    const key = `${top}\u0000${within}`;
    const known = this.#falseSchemas.get(key);
    if (known !== undefined) return known;
    // ajv writes the whole path for a definition it inlined.
    if (this.#at(within) === false) {
      this.#falseSchemas.set(key, within);
      return within;
    }
    const fits = [...this.#reached(top)].filter((root) => this.#at(root + within) === false);
    const found = fits.length === 1 ? fits[0]! + within : null;
    this.#falseSchemas.set(key, found);
    return found;
  }

  /** The definition at `top` and the pointers of every local `$ref` target it reaches. */
  #reached(top: string): Set<string> {
    const roots = new Set([top]);
    const todo = [this.#at(top)];
    const follow = (_key: string, value: unknown): unknown => {
      if (typeof value === "object" && value !== null && !Array.isArray(value)) {
        const ref = (value as Record<string, unknown>).$ref;
        if (typeof ref === "string" && ref.startsWith("#/") && !roots.has(ref.slice(1))) {
          roots.add(ref.slice(1));
          todo.push(this.#at(ref.slice(1)));
        }
      }
      return value;
    };
    while (todo.length > 0) JSON.stringify(todo.pop(), follow);
    return roots;
  }

  #at(pointer: string): unknown {
    return pointerTarget(this.#document, pointer);
  }
}
