import { isJsonObject } from "../json/index.ts";
import type { Issue } from "./types.ts";

/** What a JSON-RPC 2.0 message is, read from its members alone. */
export type JsonRpcShape =
  | { readonly kind: "request"; readonly method: string; readonly id: unknown }
  | { readonly kind: "notification"; readonly method: string }
  | { readonly kind: "result"; readonly id: unknown }
  | { readonly kind: "error"; readonly id: unknown; readonly code: unknown };

/**
 * Reads the JSON-RPC shape of a value: a `method` makes it a request (with `id`) or a
 * notification, otherwise `result` or `error` make it a response. Null when it is none of these
 * or carries no `jsonrpc` member at all.
 */
export function jsonRpcShape(value: unknown): JsonRpcShape | null {
  return isJsonObject(value) && "jsonrpc" in value ? readShape(value) : null;
}

/**
 * Which shape the members alone make, whatever `jsonrpc` says. The rules, run on every message,
 * need only this, so it builds nothing.
 */
function shapeKind(value: Record<string, unknown>): JsonRpcShape["kind"] | null {
  if (typeof value.method === "string") return "id" in value ? "request" : "notification";
  if ("error" in value) return "error";
  return "result" in value ? "result" : null;
}

function readShape(value: Record<string, unknown>): JsonRpcShape | null {
  const method = value.method as string;
  switch (shapeKind(value)) {
    case "request":
      return { kind: "request", method, id: value.id };
    case "notification":
      return { kind: "notification", method };
    case "error":
      return { kind: "error", id: value.id, code: isJsonObject(value.error) ? value.error.code : undefined };
    case "result":
      return { kind: "result", id: value.id };
    default:
      return null;
  }
}

function rule(pointer: string, rule: string, message: string): Issue {
  return { pointer, message, severity: "error", source: "rule", rule };
}

function describe(value: unknown): string {
  if (value === undefined) return "missing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number" && !Number.isInteger(value)) return `the fraction ${value}`;
  if (typeof value === "string") return `the string ${JSON.stringify(value)}`;
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function idIssue(id: unknown, allowNull: boolean): Issue | null {
  if (typeof id === "string") return null;
  if (typeof id === "number" && Number.isInteger(id)) return null;
  if (id === null && allowNull) return null;
  const allowed = allowNull ? "a string, an integer, or null" : "a string or an integer";
  return rule("/id", "jsonrpc.id", `The id must be ${allowed}, not ${describe(id)}.`);
}

/**
 * JSON-RPC 2.0 rules that schemas state loosely or not at all: the exact version string, the id's
 * type (integers only, as MCP requires; null only on an error answering an unreadable request),
 * exactly one of `result` and `error`, and an integer error code with a message. The issues are
 * added to `issues` when given (a family's own list), else to a new list.
 */
export function jsonRpcRules(value: unknown, issues: Issue[] = []): Issue[] {
  if (!isJsonObject(value)) return issues;
  if (value.jsonrpc !== "2.0") {
    issues.push(rule("/jsonrpc", "jsonrpc.version", `"jsonrpc" must be exactly "2.0", not ${describe(value.jsonrpc)}.`));
  }
  const kind = shapeKind(value);
  if (!kind) {
    issues.push(rule("", "jsonrpc.shape", "A JSON-RPC message needs a method (request or notification), or a result or error (response)."));
    return issues;
  }
  if (kind === "request") {
    const problem = idIssue(value.id, false);
    if (problem) issues.push(problem);
  } else if (kind === "result" || kind === "error") {
    if (!("id" in value)) issues.push(rule("", "jsonrpc.id", "A response must carry the id of the request it answers."));
    else {
      const problem = idIssue(value.id, kind === "error");
      if (problem) issues.push(problem);
    }
    if ("result" in value && "error" in value) {
      issues.push(rule("", "jsonrpc.result-and-error", "A response carries a result or an error, never both."));
    }
    if ("method" in value) issues.push(rule("/method", "jsonrpc.response-method", "A response must not carry a method."));
  }
  if (kind === "error") errorObjectRules(value.error, issues);
  return issues;
}

function errorObjectRules(error: unknown, issues: Issue[]): void {
  if (!isJsonObject(error)) {
    issues.push(rule("/error", "jsonrpc.error", `"error" must be an object, not ${describe(error)}.`));
    return;
  }
  if (typeof error.code !== "number" || !Number.isInteger(error.code)) {
    issues.push(rule("/error/code", "jsonrpc.error-code", `The error code must be an integer, not ${describe(error.code)}.`));
  }
  if (typeof error.message !== "string") {
    issues.push(rule("/error/message", "jsonrpc.error-message", `The error message must be a string, not ${describe(error.message)}.`));
  }
}
