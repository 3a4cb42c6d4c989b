import { type KindCheck, SchemaCompiler } from "../schema/compiler.ts";
import { definitionNode } from "../schema/schema-document.ts";
import { SchemaInclusion } from "../schema/schema-inclusion.ts";
import type { FamilyModule, MessageKind, SchemaPack, SessionOptions } from "./types.ts";
import { ValidationSession } from "./validation-session.ts";

export { DECISIVE_SCORE, RECOGNITION_FLOOR, SCORE_MARGIN } from "./candidate-ranking.ts";
export { ValidationSession } from "./validation-session.ts";

/** The packs and family modules, and one compiler caching validators across sessions. */
export class ValidationEngine {
  readonly families: readonly FamilyModule[];
  readonly compiler: SchemaCompiler;

  constructor(families: readonly FamilyModule[], compiler = new SchemaCompiler()) {
    this.families = families;
    this.compiler = compiler;
  }

  /** Every pack, family by family, oldest first. */
  packs(): SchemaPack[] {
    return this.families.flatMap((f) => f.packs);
  }

  #byId: Map<string, SchemaPack> | undefined;

  pack(id: string): SchemaPack | undefined {
    this.#byId ??= new Map(this.packs().map((p) => [p.id, p]));
    return this.#byId.get(id);
  }

  /** A fresh batch: what earlier messages teach stays within the session. */
  session(options?: SessionOptions): ValidationSession {
    return new ValidationSession(this, options);
  }

  readonly #versionsOf = new WeakMap<MessageKind, readonly Version[]>();

  /** Every version of the family with a kind of this one's id, oldest first, with each definition's class; by kind object, so no key is built per message. */
  versionsOf(family: string, kind: MessageKind): readonly Version[] {
    let found = this.#versionsOf.get(kind);
    if (!found) {
      const packs = this.families.find((f) => f.family === family)?.packs ?? [];
      found = packs.flatMap((pack) => {
        const same = pack.kinds.find((k) => k.id === kind.id);
        return same ? [{ pack, kind: same, cls: this.compiler.definitionClass(pack, same.definition), out: [] }] : [];
      });
      this.#versionsOf.set(kind, found);
    }
    return found;
  }

  /** By class of the first version, then of the second: whether passing the first implies passing the second. */
  readonly #implied: (boolean | undefined)[][] = [];
  /** One prover per ordered pair of packs, keeping what it proved about their definitions. */
  readonly #inclusions = new Map<string, SchemaInclusion>();

  /**
   * Whether every value `from`'s definition accepts, `to`'s accepts too, proven from the two
   * schemas (see SchemaInclusion); false when it cannot be proven. Worked out once per pair of classes.
   */
  implies(from: Version, to: Version): boolean {
    if (from.cls === to.cls) return true;
    const row = (this.#implied[from.cls] ??= []);
    let found = row[to.cls];
    if (found === undefined) {
      const key = `${from.pack.id}\u0000${to.pack.id}`;
      let prover = this.#inclusions.get(key);
      if (!prover) this.#inclusions.set(key, (prover = new SchemaInclusion(from.pack, to.pack)));
      found = row[to.cls] = prover.includes(definitionNode(from.pack, from.kind.definition), definitionNode(to.pack, to.kind.definition));
    }
    return found;
  }

  readonly #plans = new WeakMap<MessageKind, ValidInPlan>();

  /**
   * For a message judged by `pack`'s `kind`: which of the kind's versions its passing settles (its
   * own, and those it provably implies), and which still need a check. Worked out once per kind.
   */
  validInPlan(pack: SchemaPack, kind: MessageKind): ValidInPlan {
    let plan = this.#plans.get(kind);
    if (plan?.pack !== pack) {
      const versions = this.versionsOf(pack.family, kind);
      const own = versions.find((v) => v.pack === pack);
      let settled = 0;
      const open: Version[] = [];
      const bits: number[] = [];
      versions.forEach((version, v) => {
        if (own !== undefined && this.implies(own, version)) settled |= 1 << v;
        else {
          open.push(version);
          bits.push(1 << v);
        }
      });
      plan = { pack, versions, settled, open, bits };
      this.#plans.set(kind, plan);
    }
    return plan;
  }
}

/** What ValidationEngine.validInPlan works out: `bits` holds each open version's bit in the mask of versions. */
export interface ValidInPlan {
  readonly pack: SchemaPack;
  readonly versions: readonly Version[];
  readonly settled: number;
  readonly open: readonly Version[];
  readonly bits: readonly number[];
}

/**
 * One version of a kind, with its definition's class, its yes/no check once first asked for (so
 * compiling stays lazy), and the validIn lists already made, by bit mask of passing versions.
 */
export interface Version {
  readonly pack: SchemaPack;
  readonly kind: MessageKind;
  readonly cls: number;
  check?: KindCheck;
  readonly out: (readonly string[] | undefined)[];
}
