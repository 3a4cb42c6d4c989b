import type { KindCheck, SchemaCompiler } from "../schema/compiler.ts";
import type { Issue, MessageKind, SchemaPack } from "./types.ts";

/**
 * The data context of a top-level validator call. ajv's generated code (the compiler does not ask
 * for ES5 code) destructures it, never writes it, and defaults what is missing: rootData is the
 * value itself. Without one it allocates an empty object per call, which at several calls per
 * message cost a few per cent of bulk validation time.
 */
const TOP_LEVEL = { instancePath: "" } as NonNullable<Parameters<KindCheck["isValid"]>[1]>;

/** A full check's issues, with the pack whose id their schema paths carry. */
interface FullCheck {
  readonly pack: SchemaPack;
  readonly issues: Issue[];
}

/**
 * What the handling of one message has learned about definition classes (see
 * SchemaCompiler.definitionClass): two definitions of one class are the same schema, so a value
 * passes both or neither, with the same issues. Each class is then checked at most once per
 * message, whichever candidate, version or era check asks. Answers are stamped with the message's
 * number rather than cleared, so starting a message costs one increment.
 */
export class ClassMemo {
  readonly #compiler: SchemaCompiler;
  #message = 0;
  /** By class: the message the yes/no answer is for, and the answer. */
  readonly #answered: number[] = [];
  readonly #valid: boolean[] = [];
  /** By class: the message the full issues are for, and the issues. */
  readonly #fullFor: number[] = [];
  readonly #full: (FullCheck | undefined)[] = [];

  constructor(compiler: SchemaCompiler) {
    this.#compiler = compiler;
  }

  /** Forgets every answer: the next questions are about another message. */
  next(): void {
    this.#message++;
  }

  /** The yes/no answer already found for a class, if any. A class past the arrays is unanswered (reading past them would unsettle compiled code). */
  known(cls: number): boolean | undefined {
    return cls < this.#answered.length && this.#answered[cls] === this.#message ? this.#valid[cls] : undefined;
  }

  /** Whether `value` passes the kind's definition in `pack`. */
  isValid(pack: SchemaPack, kind: MessageKind, value: unknown): boolean {
    return this.passes(this.#compiler.kindCheck(pack, kind), value);
  }

  /** Whether `value` passes a kind check the caller already holds. */
  passes(check: KindCheck, value: unknown): boolean {
    const cls = check.cls;
    if (cls >= this.#answered.length) this.#grow(cls);
    if (this.#answered[cls] === this.#message) return this.#valid[cls]!;
    const ok = check.isValid(value, TOP_LEVEL) === true;
    this.#answered[cls] = this.#message;
    this.#valid[cls] = ok;
    return ok;
  }

  /** Every schema issue of `value` against the kind's definition in `pack`; empty when it passes. */
  issues(pack: SchemaPack, kind: MessageKind, value: unknown): Issue[] {
    const cls = this.#compiler.definitionClass(pack, kind.definition);
    if (cls >= this.#answered.length) this.#grow(cls);
    const found = this.#fullIssues(cls, pack);
    if (found) return found;
    const issues = this.#compiler.check(pack, kind.definition, value);
    this.#fullFor[cls] = this.#message;
    this.#full[cls] = { pack, issues };
    if (issues.length > 0) {
      this.#answered[cls] = this.#message;
      this.#valid[cls] = false;
    }
    return issues;
  }

  /** The class's full issues found already for this message, as `pack` reports them; undefined when not yet checked. */
  #fullIssues(cls: number, pack: SchemaPack): Issue[] | undefined {
    const found = this.#fullFor[cls] === this.#message ? this.#full[cls] : undefined;
    if (!found) return undefined;
    return found.pack === pack ? found.issues : inPack(found, pack);
  }

  /** Room for every class up to `cls`, filled, so the arrays stay dense however high class numbers go. */
  #grow(cls: number): void {
    while (this.#answered.length <= cls) {
      this.#answered.push(-1);
      this.#valid.push(false);
      this.#fullFor.push(-1);
      this.#full.push(undefined);
    }
  }

  /** The first schema issue, or undefined when the value passes: a yes/no check first, then the full check's first issue (see SchemaCompiler.firstIssue). */
  firstIssue(pack: SchemaPack, kind: MessageKind, value: unknown): Issue | undefined {
    if (this.isValid(pack, kind, value)) return undefined;
    const found = this.#fullIssues(this.#compiler.definitionClass(pack, kind.definition), pack);
    return found ? found[0] : this.#compiler.firstIssue(pack, kind.definition, value);
  }
}

/** Issues found in one pack, as another pack with the same definition reports them: only the pack id in schema paths differs. */
function inPack(found: FullCheck, pack: SchemaPack): Issue[] {
  const cut = found.pack.id.length;
  return found.issues.map((issue) => (issue.schemaPath === undefined ? issue : { ...issue, schemaPath: pack.id + issue.schemaPath.slice(cut) }));
}
