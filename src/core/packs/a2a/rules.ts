import { isJsonObject } from "../../json/index.ts";
import { jsonRpcRules } from "../../validation/json-rpc.ts";
import type { Candidate, Issue, MessageRole } from "../../validation/types.ts";
import { isAllowedMethod } from "../../validation/near-miss.ts";
import { methodOfKind } from "./catalog.ts";
import { rulesV1 } from "./rules-v1.ts";
import { A2A_V01 } from "./v0-1.ts";
import { A2A_V10 } from "./v1-0.ts";

/** Protocol rules beyond the schemas, for a message classified as `chosen`. */

const JSON_RPC_ROLES: ReadonlySet<MessageRole> = new Set(["request", "result", "error", "event"]);

function rule(pointer: string, id: string, message: string): Issue {
  return { pointer, message, severity: "error", source: "rule", rule: id };
}

/** JSON-RPC envelope rules; a missing `jsonrpc` is reported once, and the rest still checked. */
function envelopeRules(value: Record<string, unknown>): Issue[] {
  if ("jsonrpc" in value) return jsonRpcRules(value);
  const missing = rule("", "jsonrpc.version", 'The "jsonrpc" member is missing; it must be "2.0".');
  return [missing, ...jsonRpcRules({ ...value, jsonrpc: "2.0" })];
}

/** A request judged as the A2A method its name is a near miss of: the name is the first fault. */
function methodRule(value: Record<string, unknown>, chosen: Candidate, extensions: readonly string[] | undefined): Issue | undefined {
  const method = value.method;
  const meant = methodOfKind(chosen.pack, chosen.kind.id)?.method;
  if (typeof method !== "string" || meant === undefined || meant === method || isAllowedMethod(method, extensions)) return undefined;
  return rule("/method", "a2a.unknown-method", `${chosen.pack.label} defines no method "${method}". Did you mean "${meant}"?`);
}

export function a2aRules(value: unknown, chosen: Candidate, extensions?: readonly string[]): Issue[] {
  if (!isJsonObject(value)) return [];
  const issues: Issue[] = [];
  const role = chosen.kind.role;
  if (role === "request") {
    const misnamed = methodRule(value, chosen, extensions);
    if (misnamed) issues.push(misnamed);
  }
  if (JSON_RPC_ROLES.has(role)) issues.push(...envelopeRules(value));
  // v0.1's schema does not require the id; without one the call is a notification no one answers.
  if (chosen.pack === A2A_V01 && role === "request" && !("id" in value)) {
    issues.push(rule("", "a2a.request-id", "An A2A request needs an id: without one it is a notification, and A2A methods always answer."));
  }
  if (chosen.pack === A2A_V10) issues.push(...rulesV1(value, chosen.kind));
  return issues;
}
