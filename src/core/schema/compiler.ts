import { Ajv, type AnySchema, type ErrorObject, type Options, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { Issue, MessageKind, SchemaDraft, SchemaPack } from "../validation/types.ts";
import { issuesFromAjv, standsAlone } from "./ajv-issues.ts";
import { needsEvaluationTracking, withoutEvaluationTracking } from "./evaluation-tracking.ts";
import { inlineRefs } from "./inline-refs.ts";
import { PACK_PATTERNS } from "./pack-patterns.ts";
import { definitionText } from "./definition-text.ts";
import { definitionContainer } from "./schema-document.ts";
import { SchemaLocations } from "./schema-locations.ts";

// ajv-formats is CommonJS; bundlers and Node disagree on where its default export lands.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

/**
 * A peer schema ready for this ajv instance: `$schema` goes (the instance already speaks the
 * draft, and may not know the URI's spelling), and a previous schema under the same `$id` is
 * dropped first, since peers reuse ids freely and the id may anchor the schema's own `$ref`s.
 */
function forCompile(ajv: Ajv, schema: Record<string, unknown>): AnySchema {
  const { $schema: _schema, ...rest } = schema;
  if (typeof rest.$id === "string") ajv.removeSchema(rest.$id);
  return rest as AnySchema;
}

/** A pack whose schema document does not compile: a bug in the pack, named so it can be found. */
export class PackCompileError extends Error {
  override readonly name = "PackCompileError";
  readonly packId: string;
  constructor(packId: string, detail: string) {
    super(`Schema pack ${packId} does not compile: ${detail}`);
    this.packId = packId;
  }
}

/** Draft named by a `$schema` URI, or undefined for one we do not know. */
export function draftOf(schemaUri: unknown): SchemaDraft | undefined {
  if (typeof schemaUri !== "string") return undefined;
  if (schemaUri.includes("draft-07") || schemaUri.includes("draft-06") || schemaUri.includes("draft-04")) return "draft-07";
  if (schemaUri.includes("2020-12") || schemaUri.includes("2019-09")) return "2020-12";
  return undefined;
}

/**
 * An ajv instance. `ownSchemas`: for our packs, whose patterns PACK_PATTERNS knows.
 * `explained`: its errors carry message texts and the data they name, for instances whose errors
 * are shown; the yes/no instance's never are.
 */
function createAjv(draft: SchemaDraft, allErrors: boolean, formats: boolean, ownSchemas = true, explained = allErrors): Ajv {
  const options: Options = {
    ...(ownSchemas ? { code: { regExp: PACK_PATTERNS } } : {}),
    messages: explained,
    strict: false,
    allErrors,
    verbose: explained,
    validateFormats: formats,
    // Peer-supplied and upstream-shaped schemas use every keyword; unknown ones are annotations.
    allowUnionTypes: true,
  };
  const ajv = draft === "2020-12" ? new Ajv2020(options) : new Ajv(options);
  if (formats) addFormats(ajv);
  return ajv;
}

/** What checking a value against one kind needs, ready to call: see SchemaCompiler.kindCheck. */
export interface KindCheck {
  readonly pack: SchemaPack;
  /** ajv's compiled yes/no function; it returns a boolean for a pack definition (they are synchronous). */
  readonly isValid: ValidateFunction;
  /** The definition's class (see definitionClass). */
  readonly cls: number;
}

/** Which of a pack's validators: yes/no, every error, or the full schema's first error. */
type Flavour = "fast" | "full" | "first";

interface PackValidators {
  readonly fast: Ajv;
  readonly full: Ajv;
  /** Whether the document needs no evaluation tracking, so its instances run without it (see evaluation-tracking.ts). */
  readonly untracked: boolean;
  /** Made when first asked for: most packs never need it. */
  first: Ajv | undefined;
  /** Where the explained instances' errors lie in the document; made with the first error. */
  locations: SchemaLocations | undefined;
  readonly fns: Record<Flavour, Map<string, ValidateFunction>>;
  readonly classes: Map<string, number>;
}

const DYNAMIC_CACHE_LIMIT = 256;
/** A peer-supplied schema larger than this is not compiled: compiling is code generation. */
export const MAX_DYNAMIC_SCHEMA_CHARS = 256 * 1024;

/**
 * Compiles and caches validators: per pack, one ajv instance for fast yes/no checks and one that
 * collects every error; per definition, one compiled function each, made on first use. The yes/no
 * instance compiles a copy of the document with its `$ref`s written out (see inline-refs.ts), and
 * tracks evaluated members only where the pack needs it (see evaluation-tracking.ts).
 */
export class SchemaCompiler {
  readonly #packs = new Map<string, PackValidators>();
  readonly #dynamic = new Map<string, ValidateFunction | string>();
  readonly #dynamicAjv = new Map<SchemaDraft, Ajv>();

  #validators(pack: SchemaPack): PackValidators {
    let entry = this.#packs.get(pack.id);
    if (!entry) {
      // The explained instances' errors are the same untracked: an anyOf that passes drops its branches' errors either way.
      const untracked = pack.draft === "2020-12" && !needsEvaluationTracking(pack.document);
      const fast = createAjv(pack.draft, false, pack.assertFormats);
      const full = createAjv(pack.draft, true, pack.assertFormats);
      try {
        fast.addSchema(inlineRefs(pack.document, definitionContainer(pack.draft)) as AnySchema);
        full.addSchema(pack.document as AnySchema);
        if (untracked) {
          withoutEvaluationTracking(fast);
          withoutEvaluationTracking(full);
        }
      } catch (err) {
        throw new PackCompileError(pack.id, (err as Error).message);
      }
      entry = { fast, full, untracked, first: undefined, locations: undefined, fns: { fast: new Map(), full: new Map(), first: new Map() }, classes: new Map() };
      this.#packs.set(pack.id, entry);
    }
    return entry;
  }

  #instance(pack: SchemaPack, entry: PackValidators, flavour: Flavour): Ajv {
    if (flavour !== "first") return flavour === "full" ? entry.full : entry.fast;
    if (!entry.first) {
      entry.first = createAjv(pack.draft, false, pack.assertFormats, true, true);
      entry.first.addSchema(pack.document as AnySchema);
      if (entry.untracked) withoutEvaluationTracking(entry.first);
    }
    return entry.first;
  }

  #function(pack: SchemaPack, definition: string, flavour: Flavour): ValidateFunction {
    const entry = this.#validators(pack);
    const cache = entry.fns[flavour];
    let fn = cache.get(definition);
    if (fn) return fn;
    const id = pack.document.$id;
    const container = definitionContainer(pack.draft);
    const defs = pack.document[container] as Record<string, unknown> | undefined;
    if (typeof id !== "string" || !defs || !(definition in defs)) {
      throw new PackCompileError(pack.id, `it has no definition "${definition}"`);
    }
    try {
      fn = this.#instance(pack, entry, flavour).getSchema(`${id}#/${container}/${definition}`);
    } catch (err) {
      throw new PackCompileError(pack.id, `definition "${definition}": ${(err as Error).message}`);
    }
    if (!fn) throw new PackCompileError(pack.id, `definition "${definition}" did not resolve`);
    cache.set(definition, fn);
    return fn;
  }

  readonly #classes = new Map<string, number>();
  #nextClass = 0;

  /**
   * A number that two pack definitions share only when they are the same schema (see
   * definitionText), so a value passes both or neither: one check answers for every version that
   * kept a definition unchanged. Worked out once per definition.
   */
  definitionClass(pack: SchemaPack, definition: string): number {
    const classes = this.#validators(pack).classes;
    let found = classes.get(definition);
    if (found === undefined) {
      const text = definitionText(pack, definition);
      found = text === null ? undefined : this.#classes.get(text);
      if (found === undefined) {
        found = this.#nextClass++;
        if (text !== null) this.#classes.set(text, found);
      }
      classes.set(definition, found);
    }
    return found;
  }

  readonly #kindChecks = new WeakMap<MessageKind, KindCheck>();

  /**
   * A kind's yes/no validator and definition class, remembered by the kind object, so checking a
   * message builds no key and makes no lookup by name. A kind object shared by two packs is
   * remembered for the first and worked out afresh for the other.
   */
  kindCheck(pack: SchemaPack, kind: MessageKind): KindCheck {
    const found = this.#kindChecks.get(kind);
    if (found && found.pack === pack) return found;
    const made: KindCheck = { pack, isValid: this.#function(pack, kind.definition, "fast"), cls: this.definitionClass(pack, kind.definition) };
    if (!found) this.#kindChecks.set(kind, made);
    return made;
  }

  /** Compiles every kind's definition now, so a broken pack fails loudly and early. */
  compileAll(pack: SchemaPack): void {
    for (const kind of pack.kinds) this.#function(pack, kind.definition, "fast");
  }

  /** Yes or no, as fast as ajv goes: no error collection. */
  isValid(pack: SchemaPack, definition: string, value: unknown): boolean {
    return this.#function(pack, definition, "fast")(value) as boolean;
  }

  /** Every problem with `value` against a pack definition; empty when valid. */
  check(pack: SchemaPack, definition: string, value: unknown): Issue[] {
    const fn = this.#function(pack, definition, "full");
    if (fn(value)) return [];
    return issuesFromAjv(this.#located(pack, fn.errors ?? [], definition), pack.id, "schema", "", pack.document);
  }

  /**
   * The issue `check` would list first, or undefined when the value passes. ajv evaluates a schema's
   * keywords in one order whether or not it collects every error, so a run that stops at its first
   * error finds the same one: taken when that run ends on a single error that the full list would
   * neither regroup (a union's) nor drop (one a wrong type makes redundant); else the full check.
   */
  firstIssue(pack: SchemaPack, definition: string, value: unknown): Issue | undefined {
    const fn = this.#function(pack, definition, "first");
    if (fn(value)) return undefined;
    const errors = fn.errors ?? [];
    const only = errors.length === 1 ? errors[0]! : undefined;
    if (only && standsAlone(only.keyword)) return issuesFromAjv(this.#located(pack, errors, definition), pack.id, "schema", "", pack.document)[0];
    return this.check(pack, definition, value)[0];
  }

  /** An explained validator's errors for `definition`, their schema paths made pointers into the pack document. */
  #located(pack: SchemaPack, errors: ErrorObject[], definition: string): ErrorObject[] {
    return (this.#validators(pack).locations ??= new SchemaLocations(pack)).place(errors, definition);
  }

  /**
   * Validates against a schema that arrived in traffic (a tool's inputSchema or outputSchema).
   * A schema that cannot be compiled gives one warning instead of a verdict.
   */
  checkDynamic(schema: unknown, value: unknown, pointer: string, fallback: SchemaDraft): Issue[] {
    const fn = this.#dynamicFunction(schema, fallback);
    if (typeof fn === "string") {
      return [{ pointer, message: fn, severity: "warning", source: "tool-schema", keyword: "$schema" }];
    }
    if (fn(value)) return [];
    return issuesFromAjv(fn.errors ?? [], "tool", "tool-schema", pointer, fn.schema);
  }

  #dynamicFunction(schema: unknown, fallback: SchemaDraft): ValidateFunction | string {
    if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
      return typeof schema === "boolean" ? this.#compileDynamic(schema, fallback, String(schema)) : "The peer's schema is not an object, so it was not applied.";
    }
    const text = JSON.stringify(schema);
    if (text.length > MAX_DYNAMIC_SCHEMA_CHARS) {
      return `The peer's schema is ${text.length} characters, over the ${MAX_DYNAMIC_SCHEMA_CHARS} this tool compiles, so it was not applied.`;
    }
    const draft = draftOf((schema as Record<string, unknown>).$schema) ?? fallback;
    return this.#compileDynamic(schema, draft, `${draft}\u0000${text}`);
  }

  #compileDynamic(schema: object | boolean, draft: SchemaDraft, key: string): ValidateFunction | string {
    const cached = this.#dynamic.get(key);
    if (cached !== undefined) return cached;
    let ajv = this.#dynamicAjv.get(draft);
    if (!ajv) this.#dynamicAjv.set(draft, (ajv = createAjv(draft, true, false, false)));
    let result: ValidateFunction | string;
    try {
      result = ajv.compile(typeof schema === "boolean" ? schema : forCompile(ajv, schema as Record<string, unknown>));
    } catch (err) {
      result = `The peer's schema does not compile, so it was not applied: ${(err as Error).message}`;
    }
    if (this.#dynamic.size >= DYNAMIC_CACHE_LIMIT) this.#dynamic.delete(this.#dynamic.keys().next().value!);
    this.#dynamic.set(key, result);
    return result;
  }
}
