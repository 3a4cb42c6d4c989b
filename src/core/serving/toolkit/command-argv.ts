import { isJsonObject } from "../../json/index.ts";
import type { CommandImpl } from "./toolkit-types.ts";

export type ArgvResult = { readonly ok: true; readonly argv: readonly string[] } | { readonly ok: false; readonly error: string };

const FLAG_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

function scalar(value: unknown, name: string): string | { error: string } {
  if (typeof value === "string") return value;
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : { error: `"${name}" is not a finite number` };
  if (typeof value === "boolean") return String(value);
  return { error: `"${name}" must be a string, number or boolean here, not ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}` };
}

/**
 * Maps a call's input to the argv: the program's own argv, then flags (`--name=value`; booleans as
 * `--name` / `--no-name`; arrays repeat the flag), then `--` and the positionals in declared order
 * (an array positional gives one argument per item). Properties the schema does not declare are
 * refused, so a caller cannot invent flags; null and absent values are left out.
 */
export function buildArgv(impl: CommandImpl, inputSchema: Readonly<Record<string, unknown>>, input: unknown): ArgvResult {
  if (input !== undefined && !isJsonObject(input)) return { ok: false, error: "the arguments must be a JSON object" };
  const args = input ?? {};
  const declared = isJsonObject(inputSchema.properties) ? inputSchema.properties : {};
  const flags: string[] = [];
  const positionals: string[] = [];
  for (const name of Object.keys(args)) {
    if (!Object.hasOwn(declared, name)) return { ok: false, error: `unknown argument "${name}": the tool's input schema does not declare it` };
  }
  const positional = new Set(impl.positionals);
  for (const [name, value] of Object.entries(args)) {
    if (value === null || value === undefined || positional.has(name)) continue;
    if (!FLAG_NAME.test(name)) return { ok: false, error: `argument "${name}" cannot be a command-line flag name` };
    const items = Array.isArray(value) ? value : [value];
    for (const item of items) {
      if (typeof item === "boolean") {
        flags.push(item ? `--${name}` : `--no-${name}`);
        continue;
      }
      const text = scalar(item, name);
      if (typeof text !== "string") return { ok: false, error: text.error };
      flags.push(`--${name}=${text}`);
    }
  }
  for (const name of impl.positionals) {
    const value = args[name];
    if (value === null || value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      const text = scalar(item, name);
      if (typeof text !== "string") return { ok: false, error: text.error };
      positionals.push(text);
    }
  }
  return { ok: true, argv: [...impl.argv, ...flags, ...(positionals.length > 0 ? ["--", ...positionals] : [])] };
}
