import { jsonRpcMethod, type Binding, type Dialect, type Operation } from "../../../core/a2a/index.ts";
import { A2A_V01 } from "../../../core/packs/a2a/v0-1.ts";
import { A2A_V02 } from "../../../core/packs/a2a/v0-2.ts";
import { A2A_V03 } from "../../../core/packs/a2a/v0-3.ts";
import { A2A_V10, V1_METHODS } from "../../../core/packs/a2a/v1-0.ts";
import type { SchemaPack } from "../../../core/validation/types.ts";

/**
 * The schema the request editor completes and checks against: the validation pack's definition
 * of the request (the JSON-RPC envelope, or the REST body), over the pack's whole document so
 * its references resolve. Only completion and hovers come from here; Validate has the last word.
 */

const PACKS: Readonly<Record<Dialect, SchemaPack>> = { "0.1": A2A_V01, "0.2": A2A_V02, "0.3": A2A_V03, "1.0": A2A_V10 };

function definitionName(dialect: Dialect, binding: Binding, operation: Operation): string | undefined {
  const method = jsonRpcMethod(operation, dialect);
  if (binding === "jsonrpc") return method === undefined ? undefined : PACKS[dialect].kinds.find((k) => k.id === `${method}:request`)?.definition;
  if (dialect === "1.0") return V1_METHODS.find((m) => m.method === method)?.params;
  // v0.3 REST bodies: only the message sends carry one.
  return operation === "send" || operation === "stream" ? "MessageSendParams" : undefined;
}

export function requestSchema(dialect: Dialect, binding: Binding, operation: Operation): object | undefined {
  const name = definitionName(dialect, binding, operation);
  if (name === undefined) return undefined;
  const pack = PACKS[dialect];
  const container = pack.draft === "draft-07" ? "definitions" : "$defs";
  const defs = pack.document[container];
  if (typeof defs !== "object" || defs === null || !(name in defs)) return undefined;
  // No $id: the editor resolves the fragment references inside this one document.
  return { $schema: pack.document.$schema, [container]: defs, $ref: `#/${container}/${name}` };
}
