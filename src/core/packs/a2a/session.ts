import type { Candidate, FamilySession, Issue, Recognition } from "../../validation/types.ts";
import { GENERATION, methodOfKind, UNPINNED, type MethodEntry, type Pinning } from "./catalog.ts";
import { a2aNotes } from "./notes.ts";
import { recognise } from "./recognise.ts";
import { a2aRules } from "./rules.ts";

/** Open requests remembered per batch; beyond this the oldest is forgotten. */
const MAX_PENDING = 50_000;

/** Methods that only one version has pin that version for the rest of the batch. */
const PINNING_METHODS: ReadonlySet<string> = new Set(["agent/getAuthenticatedExtendedCard"]);
/** Methods v0.1 and v0.2+ share: they say nothing about the dialect. */
const SHARED_METHODS: ReadonlySet<string> = new Set(["tasks/get", "tasks/cancel", "tasks/resubscribe"]);

/**
 * One batch's A2A state: which version the traffic speaks (from cards and version-specific
 * methods) and which method each open request id belongs to, so responses are checked against
 * the right result definition.
 */
export class A2ASession implements FamilySession {
  #pin: Pinning = UNPINNED;
  readonly #pending = new Map<unknown, MethodEntry>();

  recognise(value: unknown): Recognition {
    return recognise(value, { pin: this.#pin, pending: this.#pending });
  }

  check(value: unknown, chosen: Candidate): Issue[] {
    return a2aRules(value, chosen);
  }

  notes(value: unknown, chosen: Candidate): string[] {
    return a2aNotes(value, chosen);
  }

  observe(value: unknown, chosen: Candidate, valid: boolean): void {
    if (chosen.pack.family !== "a2a" || typeof value !== "object" || value === null) return;
    const id = (value as { id?: unknown }).id;
    const role = chosen.kind.role;
    if (role === "request") {
      const spec = methodOfKind(chosen.pack, chosen.kind.id);
      if (spec && (typeof id === "string" || typeof id === "number")) this.#remember(id, { pack: chosen.pack, spec });
      if (valid && spec) this.#pinFrom(chosen, spec.method);
    } else if (role === "result" || role === "error") {
      const open = this.#pending.get(id);
      if (open && (role === "error" || !open.spec.streaming)) this.#pending.delete(id);
    } else if (role === "card" && valid) {
      this.#pin = { pack: chosen.pack, generation: GENERATION.get(chosen.pack) ?? null };
    }
  }

  #remember(id: string | number, entry: MethodEntry): void {
    this.#pending.delete(id);
    this.#pending.set(id, entry);
    if (this.#pending.size > MAX_PENDING) this.#pending.delete(this.#pending.keys().next().value);
  }

  /** A method only one dialect has pins that dialect; one only one pack has pins the pack. */
  #pinFrom(chosen: Candidate, method: string): void {
    if (SHARED_METHODS.has(method)) return;
    const generation = GENERATION.get(chosen.pack) ?? null;
    if (PINNING_METHODS.has(method)) this.#pin = { pack: chosen.pack, generation };
    else if (this.#pin.generation !== generation) this.#pin = { pack: null, generation };
  }
}
