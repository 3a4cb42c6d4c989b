/**
 * Header maps and credentials. A collection file is shared and committed, so a credential in it
 * must be a reference to a secret (its value comes from the environment or is typed in), never
 * the credential itself, nor a variable, whose value is written in the file.
 */
import { type Checker, isString, LIMITS, mapAt, named } from "./collection-check-kit.ts";
import type { HarnessProtocol } from "./collection-types.ts";
import { referencesIn, withoutReferences } from "./variables.ts";

/** What the step checks need to know of the rest of the document. */
export interface CheckContext {
  readonly ck: Checker;
  /** Target name → its protocol (undefined when the target's protocol is itself wrong). */
  readonly targets: ReadonlyMap<string, HarnessProtocol | undefined>;
  /** Variable name → the environments that define it. */
  readonly variables: ReadonlyMap<string, readonly string[]>;
  readonly secrets: ReadonlySet<string>;
}

const NEVER_WRITTEN = "secrets are never written: use a {{secret}} declared under secrets";

/** Header names that carry credentials. */
const CREDENTIAL_HEADERS = new Set(["authorization", "proxy-authorization"]);

/** An HTTP field name: RFC 9110 token characters. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** An auth scheme before the reference, as in `Bearer {{token}}`. */
const SCHEME = /^[A-Za-z][A-Za-z0-9._~+/-]*$/;

/**
 * A credential must be references (to secrets or captured values), with at most an auth scheme
 * word beside them when `scheme` allows one.
 */
export function credential(cx: CheckContext, value: string, pointer: string, what: string, scheme: boolean): void {
  const names = referencesIn(value);
  const rest = withoutReferences(value).trim();
  if (names.length === 0 || (rest !== "" && !(scheme && SCHEME.test(rest)))) {
    cx.ck.add(pointer, `${what} holds a literal value: ${NEVER_WRITTEN}`);
    return;
  }
  for (const name of names) {
    const environments = cx.variables.get(name);
    if (environments && !cx.secrets.has(name)) {
      cx.ck.add(pointer, `${what} refers to {{${name}}}, a variable of environment '${environments[0]!}' written in the file: ${NEVER_WRITTEN}`);
    }
  }
}

/** A header map: names are HTTP field names, values strings; credential headers checked. */
export function headersAt(cx: CheckContext, value: unknown, pointer: string): void {
  mapAt(cx.ck, value, pointer, "headers", LIMITS.entries, (name, item, where) => {
    if (name.trim() !== "" && !HEADER_NAME.test(name)) cx.ck.add(where, `'${named(name)}' is not a valid HTTP header name`);
    if (!isString(cx.ck, item, where)) return;
    if (CREDENTIAL_HEADERS.has(name.toLowerCase())) credential(cx, item, where, `the ${name} header`, true);
  });
}
