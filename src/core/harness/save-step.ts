/**
 * Saving a request crafted in a workbench as a step: the target is reused when the collection
 * already has one with the same spec, else added under a fresh name; the step gets a unique
 * name and the assertions a new step starts with (the protocol's success and a valid answer),
 * which the user then edits.
 */
import type { Assertion, Collection, Step, StepAction, TargetSpec } from "./collection-types.ts";

export interface StepDraft {
  readonly name: string;
  readonly target: TargetSpec;
  /** The name the target gets when it is new, e.g. the server's name. */
  readonly targetHint: string;
  readonly action: StepAction;
  readonly assert?: readonly Assertion[];
}

/** Sorted-key JSON, so two specs written in different key orders compare equal. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

function slug(text: string): string {
  const s = text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40);
  return s === "" ? "target" : s;
}

/** `base`, or `base 2`, `base 3`… whichever is not taken. */
export function uniqueName(base: string, taken: ReadonlySet<string>, separator = " "): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}${separator}${n}`)) return `${base}${separator}${n}`;
}

export const DEFAULT_ASSERTIONS: readonly Assertion[] = [{ kind: "outcome", is: "result" }, { kind: "valid" }];

/** An empty collection to save a first step into. */
export function emptyCollection(name: string): Collection {
  return { name, targets: {}, environments: { default: {} }, steps: [] };
}

/** The collection with the draft appended as its last step. */
export function appendStep(collection: Collection, draft: StepDraft): Collection {
  const wanted = stableJson(draft.target);
  const existing = Object.entries(collection.targets).find(([, spec]) => stableJson(spec) === wanted)?.[0];
  const targetName = existing ?? uniqueName(slug(draft.targetHint), new Set(Object.keys(collection.targets)), "-");
  const name = uniqueName(draft.name.trim() === "" ? "step" : draft.name.trim(), new Set(collection.steps.map((s) => s.name)));
  const step: Step = { name, target: targetName, action: draft.action, assert: draft.assert ?? DEFAULT_ASSERTIONS };
  return {
    ...collection,
    targets: existing ? collection.targets : { ...collection.targets, [targetName]: draft.target },
    steps: [...collection.steps, step],
  };
}
