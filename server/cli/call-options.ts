/**
 * The options `call mcp` and `call nats` share with `call a2a`, read the same way: --header,
 * --timeout, and a bearer token taken from an environment variable (never from the command
 * line, where it would land in shell history and process listings, and never repeated back).
 */
export class CallUsageError extends Error {}

export const needs = (flag: string, example: string): CallUsageError => new CallUsageError(`${flag} needs a value, e.g. ${flag} ${example}`);

/** `Name: value` into the map; the name must be a valid header token. */
export function addHeader(into: Record<string, string>, flag: string, value: string | undefined): void {
  const colon = value?.indexOf(":") ?? -1;
  if (value === undefined || colon <= 0) throw new CallUsageError(`${flag} needs "Name: value", e.g. ${flag} 'X-Api-Key: abc'`);
  const name = value.slice(0, colon).trim();
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new CallUsageError(`${flag}: ${JSON.stringify(name)} is not a header name`);
  into[name] = value.slice(colon + 1).trim();
}

export function parseTimeout(value: string | undefined): number {
  const v = Number(value);
  if (value === undefined || !Number.isInteger(v) || v < 100 || v > 3_600_000) throw new CallUsageError("--timeout must be milliseconds from 100 to 3600000");
  return v;
}

/** The value of the variable `--token-env` names; refuses an unset or empty one by its name only. */
export function tokenFromEnv(name: string | undefined, env: Readonly<Record<string, string | undefined>>): string {
  if (name === undefined || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new CallUsageError("--token-env needs the name of an environment variable, e.g. --token-env MCP_TOKEN");
  const token = env[name]?.trim();
  if (!token) throw new CallUsageError(`--token-env ${name}: the environment variable ${name} is not set or empty`);
  return token;
}

/** A JSON object given on the command line; `what` names it in the error. */
export function parseJsonObject(text: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new CallUsageError(`the ${what} ${what.endsWith("s") ? "are" : "is"} not JSON (${(err as Error).message}); give an object, e.g. '{"message": "hi"}'`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new CallUsageError(`the ${what} must be a JSON object, got ${Array.isArray(value) ? "an array" : value === null ? "null" : typeof value}`);
  }
  return value as Record<string, unknown>;
}

/** A tool name as given: not empty, no control characters. */
export function toolName(value: string): string {
  if (value === "" || [...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) throw new CallUsageError(`${JSON.stringify(value)} is not a tool name`);
  return value;
}
