/**
 * `{{name}}` references in a collection's strings: a variable of the chosen environment, a
 * secret, or a value an earlier step captured. Only identifier-like names between the braces are
 * references, so a payload that happens to hold `{{ }}` text (a template) is sent as written.
 */
import { REDACTED } from "../fisk/client/redact.ts";
import { nearestNames } from "../validation/near-miss.ts";
import type { Assertion, Collection, TargetSpec } from "./collection-types.ts";
import type { ResolvedStep } from "./run-types.ts";

/** Letters, digits and `_`, not starting with a digit: names a reference can spell. */
export const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

const REFERENCE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** Used when neither the step nor the collection sets a time limit. */
export const DEFAULT_STEP_TIMEOUT_MS = 30_000;

/** The names referenced in a string, in order of appearance, repeats included. */
export function referencesIn(text: string): string[] {
  return Array.from(text.matchAll(REFERENCE), (m) => m[1]!);
}

/** The string with every reference taken out, for checking what is literal around them. */
export function withoutReferences(text: string): string {
  return text.replace(REFERENCE, "");
}

export interface VariableScope {
  readonly environment: string | null;
  /** The chosen environment's variables. */
  readonly variables: Readonly<Record<string, string>>;
  /** Secret values by name, for the secrets the collection declares. */
  readonly secrets: Readonly<Record<string, string>>;
  readonly captured: Readonly<Record<string, string>>;
  /** Target name → replacement spec, applied before references are resolved. */
  readonly targets?: Readonly<Record<string, TargetSpec>>;
}

/** `assert` is the step's assertions with their references resolved too (an expected task id). */
export type ResolveResult = { readonly ok: true; readonly step: ResolvedStep; readonly assert: readonly Assertion[] } | { readonly ok: false; readonly error: string };

class Unresolved extends Error {}

const own = (record: Readonly<Record<string, unknown>> | undefined, key: string): boolean => record !== undefined && Object.hasOwn(record, key);

/** The value a name has in scope: a captured value first, then a secret, then a variable. */
function lookup(collection: Collection, scope: VariableScope, name: string, where: string): string {
  if (own(scope.captured, name)) return scope.captured[name]!;
  if (own(collection.secrets, name)) {
    if (own(scope.secrets, name)) return scope.secrets[name]!;
    const env = collection.secrets![name]!.env;
    throw new Unresolved(`secret '${name}' has no value: set the environment variable ${env} or type it in`);
  }
  if (own(scope.variables, name)) return scope.variables[name]!;
  const environment = scope.environment === null ? "a variable (no environment is chosen)" : `a variable of environment '${scope.environment}'`;
  const captured = Object.keys(scope.captured);
  const known = captured.length > 0 ? `captured: ${captured.join(", ")}` : "nothing captured yet";
  const all = [...Object.keys(scope.variables), ...Object.keys(collection.secrets ?? {}), ...captured];
  const near = nearestNames(name, all)[0];
  const hint = near ? `; did you mean {{${near.name}}}?` : "";
  throw new Unresolved(`{{${name}}} in ${where} is not ${environment}, a secret, or a value captured so far (${known})${hint}`);
}

function resolveString(text: string, resolve: (name: string) => string): string {
  return text.includes("{{") ? text.replace(REFERENCE, (_m, name: string) => resolve(name)) : text;
}

/** Every string in a JSON value resolved; keys are left as written. Depth is bounded by the codec. */
function resolveDeep(value: unknown, where: string, resolve: (name: string, where: string) => string, depth = 0): unknown {
  if (typeof value === "string") return resolveString(value, (name) => resolve(name, where));
  if (typeof value !== "object" || value === null || depth > 256) return value;
  if (Array.isArray(value)) return value.map((item, i) => resolveDeep(item, `${where}/${i}`, resolve, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const escaped = key.replaceAll("~", "~0").replaceAll("/", "~1");
    Object.defineProperty(out, key, { value: resolveDeep(item, `${where}/${escaped}`, resolve, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * The step with every reference in its target (after any override) and action replaced, and
 * its time limit settled; or an error naming the step, the reference and what is known.
 */
export function resolveStep(collection: Collection, index: number, scope: VariableScope): ResolveResult {
  const step = collection.steps[index];
  if (step === undefined) return { ok: false, error: `there is no step ${index} (the collection has ${collection.steps.length})` };
  const target = own(scope.targets, step.target) ? scope.targets![step.target]! : own(collection.targets, step.target) ? collection.targets[step.target] : undefined;
  if (target === undefined) return { ok: false, error: `step '${step.name}': no target '${step.target}' in the collection` };
  const resolve = (name: string, where: string) => lookup(collection, scope, name, where);
  try {
    return {
      ok: true,
      step: {
        index,
        name: step.name,
        targetName: step.target,
        target: resolveDeep(target, `target '${step.target}' `, resolve) as TargetSpec,
        action: resolveDeep(step.action, "action ", resolve) as ResolvedStep["action"],
        timeoutMs: step.timeoutMs ?? collection.timeoutMs ?? DEFAULT_STEP_TIMEOUT_MS,
      },
      assert: resolveDeep(step.assert ?? [], "assertions ", resolve) as Assertion[],
    };
  } catch (err) {
    if (err instanceof Unresolved) return { ok: false, error: `step '${step.name}': ${err.message}` };
    throw err;
  }
}

export interface StepReferences {
  readonly index: number;
  readonly name: string;
  /** Every name the step's target and action refer to, sorted, once each. */
  readonly names: readonly string[];
  /** Those of them that are declared secrets. */
  readonly secrets: readonly string[];
}

function collectStrings(value: unknown, into: Set<string>, depth = 0): void {
  if (typeof value === "string") for (const name of referencesIn(value)) into.add(name);
  else if (typeof value === "object" && value !== null && depth <= 256) for (const item of Object.values(value)) collectStrings(item, into, depth + 1);
}

/** The names each step uses, so a page can ask for the secrets a run (or one step) needs. */
export function referencesOf(collection: Collection): StepReferences[] {
  return collection.steps.map((step, index) => {
    const names = new Set<string>();
    if (own(collection.targets, step.target)) collectStrings(collection.targets[step.target], names);
    collectStrings(step.action, names);
    const sorted = [...names].sort();
    return { index, name: step.name, names: sorted, secrets: sorted.filter((n) => own(collection.secrets, n)) };
  });
}

/** Secrets shorter than this are not scrubbed: they would blank out ordinary words. */
export const MIN_SCRUBBED_LENGTH = 4;

/**
 * The text with every secret value replaced by "•••", also where it appears JSON-escaped (a
 * secret with a quote or backslash inside a JSON frame). Longest first, so a secret that
 * contains another is replaced whole.
 */
export function scrubSecrets(text: string, values: readonly string[]): string {
  const forms = new Set<string>();
  for (const value of values) {
    if (value.length < MIN_SCRUBBED_LENGTH) continue;
    forms.add(value);
    forms.add(JSON.stringify(value).slice(1, -1));
  }
  let out = text;
  for (const form of [...forms].sort((a, b) => b.length - a.length)) if (out.includes(form)) out = out.split(form).join(REDACTED);
  return out;
}
