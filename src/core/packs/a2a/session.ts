import type { Candidate, FamilySession, Issue, Recognition, SessionOptions } from "../../validation/types.ts";
import { pinning, UNPINNED, type Pinning } from "./catalog.ts";
import { kindPlan, type KindPlan } from "./kind-plan.ts";
import { a2aNotes } from "./notes.ts";
import { PendingRequests } from "./pending-requests.ts";
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
  readonly #pending = new PendingRequests(MAX_PENDING);
  /** What recognition reads, kept as one object (the pin is updated in place) so recognising allocates nothing. */
  readonly #context: { pin: Pinning; readonly pending: PendingRequests; readonly extensions: readonly string[] | undefined };

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
      if (entry && (typeof id === "string" || typeof id === "number")) this.#pending.remember(id, entry);
      if (valid && entry) this.#pinFrom(plan);
    } else if (role === "result" || role === "error") {
      const open = this.#pending.get(id);
      if (open && (role === "error" || !open.spec.streaming)) this.#pending.forget(id);
    } else if (role === "card" && valid) {
      this.#context.pin = pinning(chosen.pack, kindPlan(chosen.pack, chosen.kind).generation);
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
