import type { Candidate, FamilySession, Issue, Recognition, SessionOptions } from "../../validation/types.ts";
import { pinning, UNPINNED, type MethodEntry, type Pinning } from "./catalog.ts";
import { kindPlan, type KindPlan } from "./kind-plan.ts";
import { a2aNotes } from "./notes.ts";
import { recognise } from "./recognise.ts";
import { a2aRules } from "./rules.ts";

/** Open requests remembered per batch; beyond this the oldest is forgotten. */
const MAX_PENDING = 50_000;

/**
 * One batch's A2A state: which version the traffic speaks (from cards and version-specific
 * methods) and which method each open request id belongs to, so responses are checked against
 * the right result definition.
 */
export class A2ASession implements FamilySession {
  readonly #pending = new Map<unknown, MethodEntry>();
  /**
   * One iterator over #pending kept for evictions: everything before it was evicted, so its next
   * key is the oldest. A fresh keys().next() would walk every deleted slot before the first live one.
   */
  #oldest: Iterator<unknown> | undefined;
  /** What recognition reads, kept as one object (the pin is updated in place) so recognising allocates nothing. */
  readonly #context: { pin: Pinning; readonly pending: ReadonlyMap<unknown, MethodEntry>; readonly extensions: readonly string[] | undefined };

  constructor(options: SessionOptions = {}) {
    this.#context = { pin: UNPINNED, pending: this.#pending, extensions: options.extensionMethods };
  }

  recognise(value: unknown): Recognition {
    return recognise(value, this.#context);
  }

  check(value: unknown, chosen: Candidate): Issue[] {
    return a2aRules(value, chosen, this.#context.extensions);
  }

  notes(value: unknown, chosen: Candidate): readonly string[] {
    return a2aNotes(value, chosen);
  }

  observe(value: unknown, chosen: Candidate, valid: boolean): void {
    if (chosen.pack.family !== "a2a" || typeof value !== "object" || value === null) return;
    const id = (value as { id?: unknown }).id;
    const role = chosen.kind.role;
    if (role === "request") {
      const plan = kindPlan(chosen.pack, chosen.kind);
      const entry = plan.entry;
      if (entry && (typeof id === "string" || typeof id === "number")) this.#remember(id, entry);
      if (valid && entry) this.#pinFrom(plan);
    } else if (role === "result" || role === "error") {
      const open = this.#pending.get(id);
      if (open && (role === "error" || !open.spec.streaming)) this.#pending.delete(id);
    } else if (role === "card" && valid) {
      this.#context.pin = pinning(chosen.pack, kindPlan(chosen.pack, chosen.kind).generation);
    }
  }

  /** Remembers an open request as the newest; a repeated id moves to the end, so the oldest is forgotten first. */
  #remember(id: string | number, entry: MethodEntry): void {
    const size = this.#pending.size;
    this.#pending.set(id, entry);
    // A new id grew the map and is already last: the usual case costs one lookup, not two.
    if (this.#pending.size === size) {
      this.#pending.delete(id);
      this.#pending.set(id, entry);
    }
    if (this.#pending.size > MAX_PENDING) {
      const oldest = (this.#oldest ??= this.#pending.keys()).next();
      if (!oldest.done) this.#pending.delete(oldest.value);
    }
  }

  /** A method only one dialect has pins that dialect; one only one pack has pins the pack. */
  #pinFrom(plan: KindPlan): void {
    if (plan.requestPin === "none") return;
    const generation = plan.generation;
    if (plan.requestPin === "pack") this.#context.pin = pinning(plan.pack, generation);
    else if (this.#context.pin.generation !== generation) this.#context.pin = pinning(null, generation);
  }
}
