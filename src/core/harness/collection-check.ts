/**
 * Checks a collection document whole: every field's type, every limit, the references between
 * parts (a step's target, secret and variable names), reporting all problems with pointers.
 * Environments and secrets are read first, since targets and steps are checked against them.
 */
import { type Binding, DIALECTS } from "../a2a/dialect.ts";
import { ERA_SETTINGS } from "../mcp/era.ts";
import {
  at,
  Checker,
  choiceField,
  type CollectionProblem,
  count,
  isPlainObject,
  isString,
  type JsonRecord,
  knownFields,
  LIMITS,
  mapAt,
  NAME_RULE,
  objectAt,
  stringField,
  timeoutField,
} from "./collection-check-kit.ts";
import { COLLECTION_FIELDS, PROTOCOLS, SECRET_FIELDS, TARGET_FIELDS } from "./collection-fields.ts";
import type { HarnessProtocol } from "./collection-types.ts";
import { type CheckContext, credential, headersAt } from "./header-check.ts";
import { checkSteps } from "./step-check.ts";

const ENV_VAR = /^[A-Za-z_][A-Za-z0-9_]*$/;
const BINDINGS: readonly Binding[] = ["jsonrpc", "rest"];

function environmentsAt(ck: Checker, value: unknown): Map<string, string[]> {
  const variables = new Map<string, string[]>();
  mapAt(ck, value, "/environments", "environments", LIMITS.environments, (envName, vars, where) => {
    mapAt(ck, vars, where, `environment '${envName}'`, LIMITS.entries, (name, item, itemAt) => {
      if (!isString(ck, item, itemAt)) return;
      const list = variables.get(name) ?? [];
      list.push(envName);
      variables.set(name, list);
    }, NAME_RULE);
  });
  return variables;
}

function secretsAt(ck: Checker, value: unknown, variables: ReadonlyMap<string, readonly string[]>): Set<string> {
  const secrets = new Set<string>();
  mapAt(ck, value, "/secrets", "secrets", LIMITS.entries, (name, spec, where) => {
    secrets.add(name);
    const clash = variables.get(name);
    if (clash) ck.add(where, `secret '${name}' has the same name as a variable of environment '${clash[0]!}': a {{${name}}} would be ambiguous`);
    const obj = objectAt(ck, spec, where, `secret '${name}'`);
    if (!obj) return;
    knownFields(ck, obj, where, SECRET_FIELDS);
    const env = stringField(ck, obj, "env", where, { required: true });
    if (env !== undefined && !ENV_VAR.test(env)) ck.add(at(where, "env"), `'${env}' is not a valid environment variable name (letters, digits and _, not starting with a digit)`);
    stringField(ck, obj, "description", where);
  }, NAME_RULE);
  return secrets;
}

function targetAt(cx: CheckContext, name: string, value: unknown, where: string): HarnessProtocol | undefined {
  const { ck } = cx;
  const obj = objectAt(ck, value, where, `target '${name}'`);
  if (!obj) return undefined;
  const protocol = choiceField(ck, obj, "protocol", where, PROTOCOLS, true);
  if (!protocol) return undefined;
  knownFields(ck, obj, where, TARGET_FIELDS[protocol], ` of an ${protocol} target`);
  if (Object.hasOwn(obj, "headers")) headersAt(cx, obj.headers, at(where, "headers"));
  if (protocol === "mcp") {
    stringField(ck, obj, "url", where, { nonEmpty: true });
    stringField(ck, obj, "command", where, { nonEmpty: true });
    const given = Number(Object.hasOwn(obj, "url")) + Number(Object.hasOwn(obj, "command"));
    if (given !== 1) ck.add(where, `an mcp target needs exactly one of 'url' and 'command'; it has ${given === 0 ? "neither" : "both"}`);
    choiceField(ck, obj, "era", where, ERA_SETTINGS, false);
  } else if (protocol === "a2a") {
    stringField(ck, obj, "card", where, { required: true, nonEmpty: true });
    choiceField(ck, obj, "dialect", where, DIALECTS, false);
    choiceField(ck, obj, "binding", where, BINDINGS, false);
  } else {
    stringField(ck, obj, "server", where, { required: true, nonEmpty: true });
    const token = stringField(ck, obj, "token", where);
    if (token !== undefined) credential(cx, token, at(where, "token"), "a NATS token", false);
  }
  return protocol;
}

function collectionAt(ck: Checker, doc: JsonRecord): void {
  knownFields(ck, doc, "", COLLECTION_FIELDS, " of a collection");
  stringField(ck, doc, "name", "", { required: true, nonEmpty: true });
  stringField(ck, doc, "description", "");
  timeoutField(ck, doc, "");
  for (const key of ["targets", "environments", "steps"] as const) if (!Object.hasOwn(doc, key)) ck.add("", `missing required field '${key}'`);
  const variables = Object.hasOwn(doc, "environments") ? environmentsAt(ck, doc.environments) : new Map<string, string[]>();
  const secrets = Object.hasOwn(doc, "secrets") ? secretsAt(ck, doc.secrets, variables) : new Set<string>();
  const targets = new Map<string, HarnessProtocol | undefined>();
  const cx: CheckContext = { ck, targets, variables, secrets };
  if (Object.hasOwn(doc, "targets")) {
    mapAt(ck, doc.targets, "/targets", "targets", LIMITS.targets, (name, value, where) => targets.set(name, targetAt(cx, name, value, where)));
  }
  if (Object.hasOwn(doc, "steps")) checkSteps(cx, doc.steps);
}

/** Every problem in the document; empty when it is a valid collection. Never throws. */
export function checkCollection(data: unknown): CollectionProblem[] {
  const ck = new Checker();
  try {
    if (isPlainObject(data)) collectionAt(ck, data);
    else objectAt(ck, data, "", "a collection");
  } catch (err) {
    // Only non-JSON input (a getter that throws, a revoked proxy) gets here.
    ck.add("", `the document could not be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (ck.dropped > 0) ck.problems.push({ pointer: "", message: `and ${count(ck.dropped)} more problems` });
  return ck.problems;
}
