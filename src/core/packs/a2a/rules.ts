import { isJsonObject } from "../../json/index.ts";
import { jsonRpcRules } from "../../validation/json-rpc.ts";
import type { Candidate, Issue } from "../../validation/types.ts";
import { isAllowedMethod } from "../../validation/near-miss.ts";
import { kindPlan, type KindPlan } from "./kind-plan.ts";
import { rulesV1 } from "./rules-v1.ts";

/** Protocol rules beyond the schemas, for a message classified as `chosen`. */

function rule(pointer: string, id: string, message: string): Issue {
  return { pointer, message, severity: "error", source: "rule", rule: id };
}

/** JSON-RPC envelope rules, added to `issues`; a missing `jsonrpc` is reported once, and the rest still checked. */
function envelopeRules(value: Record<string, unknown>, issues: Issue[]): void {
  if ("jsonrpc" in value) {
    jsonRpcRules(value, issues);
    return;
  }
  issues.push(rule("", "jsonrpc.version", 'The "jsonrpc" member is missing; it must be "2.0".'));
  jsonRpcRules({ ...value, jsonrpc: "2.0" }, issues);
}

/** A request judged as the A2A method its name is a near miss of: the name is the first fault. */
function methodRule(value: Record<string, unknown>, chosen: Candidate, plan: KindPlan, extensions: readonly string[] | undefined): Issue | undefined {
  const method = value.method;
  const meant = plan.entry?.spec.method;
  if (typeof method !== "string" || meant === undefined || meant === method || isAllowedMethod(method, extensions)) return undefined;
  return rule("/method", "a2a.unknown-method", `${chosen.pack.label} defines no method "${method}". Did you mean "${meant}"?`);
}

export function a2aRules(value: unknown, chosen: Candidate, extensions?: readonly string[]): Issue[] {
  if (!isJsonObject(value)) return [];
  const issues: Issue[] = [];
  const plan = kindPlan(chosen.pack, chosen.kind);
  if (chosen.kind.role === "request") {
    const misnamed = methodRule(value, chosen, plan, extensions);
    if (misnamed) issues.push(misnamed);
  }
  if (plan.jsonRpc) envelopeRules(value, issues);
  // v0.1's schema does not require the id; without one the call is a notification no one answers.
  if (plan.v01Request && !("id" in value)) {
    issues.push(rule("", "a2a.request-id", "An A2A request needs an id: without one it is a notification, and A2A methods always answer."));
  }
  if (plan.v10) rulesV1(value, chosen.kind, issues);
  return issues;
}
