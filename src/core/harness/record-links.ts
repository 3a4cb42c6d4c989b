/**
 * Ids a recorded request reused from an earlier answer (a task id, a context id, a cursor) would
 * be stale on replay; each becomes a value the earlier step captures at the pointer where its
 * answer held it, and a `{{name}}` reference in the later request.
 */
import { isJsonObject } from "../json/json-object.ts";
import { formatPointer } from "../json/pointer.ts";
import type { Assertion, Step, StepAction } from "./collection-types.ts";
import { uniqueName } from "./save-step.ts";
import { IDENTIFIER } from "./variables.ts";

/** A step being recorded, with the body its recorded answer gives the harness's pointers. */
export interface DraftStep {
  readonly name: string;
  readonly target: string;
  action: StepAction;
  readonly assert: readonly Assertion[];
  readonly body: unknown;
  readonly capture: Record<string, string>;
}

/** Members whose values are ids handed from one answer to a later request. */
const LINKED_KEY = /(^id|Id|_id|ID)$|^cursor$/;
const MIN_LENGTH = 4;
const MAX_DEPTH = 12;
const MAX_NODES = 20_000;

interface Source {
  readonly step: number;
  readonly pointer: string;
}

/** Every string of a body (at least MIN_LENGTH long) with the first pointer it is at. */
function indexStrings(body: unknown, step: number, into: Map<string, Source>): void {
  const stack: { value: unknown; tokens: (string | number)[] }[] = [{ value: body, tokens: [] }];
  let nodes = 0;
  while (stack.length > 0 && nodes++ < MAX_NODES) {
    const { value, tokens } = stack.pop()!;
    if (typeof value === "string") {
      if (value.length >= MIN_LENGTH && !into.has(value)) into.set(value, { step, pointer: formatPointer(tokens) });
      continue;
    }
    if (tokens.length >= MAX_DEPTH) continue;
    // Pushed in reverse, so the first member is visited (and indexed) first.
    if (Array.isArray(value)) for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], tokens: [...tokens, i] });
    else if (isJsonObject(value)) {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) stack.push({ value: value[keys[i]!], tokens: [...tokens, keys[i]!] });
    }
  }
}

/** A variable name from a member name: identifier characters only. */
function variableBase(key: string): string {
  const cleaned = key.replace(/[^A-Za-z0-9_]/g, "_");
  return IDENTIFIER.test(cleaned) ? cleaned : `v_${cleaned}`;
}

class Linker {
  readonly #sources = new Map<string, Source>();
  readonly #names = new Map<string, string>();
  readonly #taken: Set<string>;
  readonly #drafts: readonly DraftStep[];
  #current = 0;

  constructor(drafts: readonly DraftStep[], taken: readonly string[]) {
    this.#drafts = drafts;
    this.#taken = new Set(taken);
  }

  /** The reference for a value an earlier answer held, or the value itself. */
  #ref(value: string, key: string): string {
    const source = this.#sources.get(value);
    if (!source || source.step >= this.#current) return value;
    let name = this.#names.get(value);
    if (name === undefined) {
      name = uniqueName(variableBase(key), this.#taken, "");
      this.#taken.add(name);
      this.#names.set(value, name);
      this.#drafts[source.step]!.capture[name] = source.pointer;
    }
    return `{{${name}}}`;
  }

  #relink(value: unknown, key: string, depth: number): unknown {
    if (typeof value === "string") return LINKED_KEY.test(key) ? this.#ref(value, key) : value;
    if (depth >= MAX_DEPTH) return value;
    if (Array.isArray(value)) return value.map((v) => this.#relink(v, key, depth + 1));
    if (isJsonObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.#relink(v, k, depth + 1)]));
    return value;
  }

  #action(a: StepAction): StepAction {
    if (a.protocol === "a2a") {
      return {
        ...a,
        ...(a.taskId !== undefined ? { taskId: this.#ref(a.taskId, "taskId") } : {}),
        ...(a.contextId !== undefined ? { contextId: this.#ref(a.contextId, "contextId") } : {}),
      };
    }
    if (a.protocol === "mcp") return a.params ? { ...a, params: this.#relink(a.params, "", 0) as Record<string, unknown> } : a;
    if (a.kind === "tool" && a.input) return { ...a, input: this.#relink(a.input, "", 0) as Record<string, unknown> };
    return a;
  }

  run(): Step[] {
    this.#drafts.forEach((d, i) => {
      this.#current = i;
      d.action = this.#action(d.action);
      indexStrings(d.body, i, this.#sources);
    });
    return this.#drafts.map((d) => ({
      name: d.name,
      target: d.target,
      action: d.action,
      assert: d.assert,
      ...(Object.keys(d.capture).length > 0 ? { capture: d.capture } : {}),
    }));
  }
}

/** The drafts as steps, with reused ids turned into captured values; `taken` are the environment's names. */
export function linkCaptures(drafts: readonly DraftStep[], taken: readonly string[]): Step[] {
  return new Linker(drafts, taken).run();
}
