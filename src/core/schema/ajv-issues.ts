import type { ErrorObject } from "ajv";
import type { Issue, IssueSource } from "../validation/types.ts";
import { nearestNames } from "../validation/near-miss.ts";
import { unionBranches } from "./union-branches.ts";

/** Property names that pick a branch of a union; a mismatch there means "wrong branch", not "wrong data". */
const DISCRIMINATORS = new Set(["type", "kind", "method", "protocol", "role", "resultType"]);
const MAX_LISTED = 8;
const REDUNDANT_AFTER_TYPE: ReadonlySet<string> = new Set(["const", "enum", "pattern", "format", "minLength", "maxLength", "minimum", "maximum"]);

/** Whether an error of this keyword keeps its place in issuesFromAjv's list whatever else is listed: no union, no `if`, none a wrong type makes redundant. */
export function standsAlone(keyword: string): boolean {
  return keyword !== "anyOf" && keyword !== "oneOf" && keyword !== "if" && !REDUNDANT_AFTER_TYPE.has(keyword);
}

function quote(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number") return Number.isInteger(value) ? "an integer" : "a number";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

function article(type: string): string {
  if (type === "null") return "null";
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function listOf(values: readonly unknown[]): string {
  const shown = values.slice(0, MAX_LISTED).map(quote).join(", ");
  return values.length > MAX_LISTED ? `${shown} (and ${values.length - MAX_LISTED} more)` : shown;
}

function lastToken(pointer: string): string {
  const token = pointer.slice(pointer.lastIndexOf("/") + 1);
  return token.includes("~") ? token.replaceAll("~1", "/").replaceAll("~0", "~") : token;
}

function subject(pointer: string): string {
  if (pointer === "") return "The message";
  const token = lastToken(pointer);
  return /^\d+$/.test(token) ? `Item ${token} of ${quote(lastToken(pointer.slice(0, pointer.lastIndexOf("/"))) || "the array")}` : `"${token}"`;
}

function escapeToken(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** Whether `pointer` is `parent` or lies below it. */
function within(pointer: string, parent: string): boolean {
  return parent === "" || pointer === parent || pointer.startsWith(`${parent}/`);
}

/** One plain-language sentence per ajv error, placed where a reader would look for it. */
function describe(error: ErrorObject, base: string): { pointer: string; message: string } {
  const at = base + error.instancePath;
  const params = error.params as Record<string, unknown>;
  // Worked out only for the sentences that name it: "required" and unexpected members, the usual faults, do not.
  const what = (): string => subject(at);
  switch (error.keyword) {
    case "required":
      return { pointer: at, message: `Missing required property "${String(params.missingProperty)}".` };
    case "additionalProperties":
    case "unevaluatedProperties": {
      const name = String(params.additionalProperty ?? params.unevaluatedProperty);
      return { pointer: `${at}/${escapeToken(name)}`, message: `Unexpected property "${name}": this schema allows no extra properties.` };
    }
    case "type": {
      const expected = String(params.type).split(",").map(article).join(" or ");
      return { pointer: at, message: `${what()} must be ${expected}, not ${typeName(error.data)}.` };
    }
    case "const":
      return { pointer: at, message: `${what()} must be ${quote(params.allowedValue)}, not ${quote(error.data)}.` };
    case "enum":
      return { pointer: at, message: `${what()} is ${quote(error.data)}; allowed: ${listOf(params.allowedValues as unknown[])}.` };
    case "pattern":
      return { pointer: at, message: `${what()} is ${quote(error.data)}, which does not match the pattern ${String(params.pattern)}.` };
    case "format":
      return { pointer: at, message: `${what()} is not a valid ${String(params.format)}.` };
    case "false schema":
      return { pointer: at, message: `${what()} is not allowed here.` };
    case "oneOf":
      if (Array.isArray(params.passingSchemas)) return { pointer: at, message: `${what()} matches more than one of the allowed shapes, and must match exactly one.` };
      return { pointer: at, message: `${what()} matches none of the allowed shapes.` };
    case "anyOf":
      return { pointer: at, message: `${what()} matches none of the allowed shapes.` };
    default:
      return { pointer: at, message: `${what()} ${error.message ?? "is invalid"}.` };
  }
}

/** The definition an error's schema path lies in (errors inside a $ref report the target's path). */
function branchKey(schemaPath: string, unionPath: string): string {
  const union = unionPath.match(/(?:anyOf|oneOf)$/) ? unionPath : null;
  if (union && schemaPath.startsWith(`${union}/`)) {
    const rest = schemaPath.slice(union.length + 1);
    return `${union}/${rest.split("/")[0]}`;
  }
  const parts = schemaPath.split("/");
  return parts.slice(0, 3).join("/");
}

interface Branch {
  readonly errors: ErrorObject[];
  /** Its discriminator did not match. */
  discriminated: boolean;
  /** It wants another type of value at the union's place altogether (an array where an object stands). */
  wrongType: boolean;
}

/** A discriminator value a letter or two from one the branch allows: a typo, not another branch's value. */
function isMisspelt(error: ErrorObject): boolean {
  const params = error.params as Record<string, unknown>;
  const allowed = error.keyword === "const" ? [params.allowedValue] : ((params.allowedValues as unknown[] | undefined) ?? []);
  const data: unknown = error.data;
  return typeof data === "string" && nearestNames(data, allowed.filter((a): a is string => typeof a === "string")).length > 0;
}

/** A member the branch requires right at the union's place, missing: the value lacks what that branch is made of. */
function lacksOwnMember(branch: Branch, unionAt: string): boolean {
  return branch.errors.some((e) => e.keyword === "required" && e.instancePath === unionAt);
}

function isDiscriminatorMiss(error: ErrorObject, unionAt: string): boolean {
  if (error.keyword !== "const" && error.keyword !== "enum") return false;
  const parent = error.instancePath.slice(0, error.instancePath.lastIndexOf("/"));
  return parent === unionAt && DISCRIMINATORS.has(lastToken(error.instancePath));
}

/**
 * Replaces a failed union's pile of branch errors with the errors of the branches that were
 * meant: a branch whose discriminator (`type`, `kind`, `method`, ...) did not match is dropped.
 * When every branch was dropped, the discriminator's own value is the problem, and one error
 * listing the allowed values says so.
 */
function resolveUnion(union: ErrorObject, members: ErrorObject[], root: unknown): ErrorObject[] {
  const branches = new Map<string, Branch>();
  const placed = unionBranches(union, members, root);
  for (const [i, error] of members.entries()) {
    const index = placed[i];
    const key = index === undefined ? branchKey(error.schemaPath, union.schemaPath) : `#${index}`;
    let branch = branches.get(key);
    if (!branch) branches.set(key, (branch = { errors: [], discriminated: false, wrongType: false }));
    branch.errors.push(error);
    if (isDiscriminatorMiss(error, union.instancePath)) branch.discriminated = true;
    if (error.keyword === "type" && error.instancePath === union.instancePath) branch.wrongType = true;
  }
  // A branch of another type altogether was not meant either.
  const meant = [...branches.values()].filter((b) => !b.discriminated && !b.wrongType);
  if (meant.length > 0 && meant.length < branches.size) {
    // Every other branch lacks members of its own, and one whose discriminator alone is off has them all: that one was meant, its discriminator misspelt.
    const misspelt = (b: Branch) => b.errors.every((e) => !isDiscriminatorMiss(e, union.instancePath) || isMisspelt(e));
    const fitting = [...branches.values()].filter((b) => b.discriminated && !b.wrongType && misspelt(b) && !lacksOwnMember(b, union.instancePath));
    if (fitting.length === 1 && meant.every((b) => lacksOwnMember(b, union.instancePath))) return fitting[0]!.errors;
    return (bestBranch(meant, union.instancePath) ?? { errors: meant.flatMap((b) => b.errors) }).errors;
  }
  const misses = members.filter((e) => isDiscriminatorMiss(e, union.instancePath));
  if (meant.length === 0 && misses.length > 0) {
    const first = misses[0]!;
    const allowed = misses.flatMap((e) => {
      const p = e.params as Record<string, unknown>;
      return e.keyword === "const" ? [p.allowedValue] : ((p.allowedValues as unknown[]) ?? []);
    });
    return [{ ...first, keyword: "enum", params: { allowedValues: [...new Set(allowed)] } }];
  }
  const best = bestBranch(meant.length > 0 ? meant : [...branches.values()], union.instancePath);
  // No branch stands out: report the union itself rather than every branch's complaint.
  return best ? best.errors : [union];
}

/** A pointer's depth: its count of "/" (a token's own slashes are escaped). */
function depthOf(pointer: string): number {
  let depth = 0;
  for (let at = pointer.indexOf("/"); at >= 0; at = pointer.indexOf("/", at + 1)) depth++;
  return depth;
}

/** How far into the value an error got: its path's depth, one more for a keyword that names a member below it. */
function reach(error: ErrorObject): number {
  const named = error.keyword === "required" || error.keyword === "dependentRequired";
  return depthOf(error.instancePath) + (named ? 1 : 0);
}

/**
 * The branch the value most likely meant: the one whose shallowest error lies deepest (it
 * matched everything above), then the one with the fewest errors. None when two branches tie:
 * then nothing tells them apart.
 */
function bestBranch(branches: readonly Branch[], unionAt: string): Branch | undefined {
  const base = depthOf(unionAt);
  let best: Branch | undefined;
  let bestKey: readonly [number, number] = [-1, 0];
  let tied = false;
  for (const branch of branches) {
    let shallowest = Infinity;
    for (const error of branch.errors) shallowest = Math.min(shallowest, reach(error));
    const key = [shallowest - base, -branch.errors.length] as const;
    const order = key[0] - bestKey[0] || key[1] - bestKey[1];
    if (order > 0) {
      best = branch;
      bestKey = key;
      tied = false;
    } else if (order === 0) tied = true;
  }
  return tied ? undefined : best;
}

/**
 * Turns ajv's errors (collected with allErrors and verbose) into issues a person can act on. ajv
 * lists a union's branch errors just before the union's own error, so they are gathered back
 * into their union by instance path.
 */
export function issuesFromAjv(errors: readonly ErrorObject[], packId: string, source: IssueSource = "schema", base = "", root?: unknown): Issue[] {
  const kept: ErrorObject[] = [];
  for (const error of errors) {
    if (error.keyword === "if") continue;
    if (error.keyword === "anyOf" || error.keyword === "oneOf") {
      const at = error.instancePath;
      let start = kept.length;
      while (start > 0 && within(kept[start - 1]!.instancePath, at)) start--;
      const members = kept.splice(start);
      if (members.length === 0) {
        kept.push(error);
        continue;
      }
      kept.push(...resolveUnion(error, members, root));
      continue;
    }
    kept.push(error);
  }
  // A value of the wrong type fails its const, enum or pattern as well; the type says it all.
  const mistyped = kept.some((e) => e.keyword === "type") ? new Set(kept.filter((e) => e.keyword === "type").map((e) => e.instancePath)) : null;
  // A single error has nothing to repeat: most failed messages have one, and need no set.
  const seen = kept.length > 1 ? new Set<string>() : null;
  const issues: Issue[] = [];
  for (const error of kept) {
    if (mistyped !== null && REDUNDANT_AFTER_TYPE.has(error.keyword) && mistyped.has(error.instancePath)) continue;
    const { pointer, message } = describe(error, base);
    if (seen !== null) {
      const key = `${pointer}\u0000${message}`;
      if (seen.has(key)) continue;
      seen.add(key);
    }
    issues.push({
      pointer,
      message,
      severity: "error",
      source,
      keyword: error.keyword,
      schemaPath: `${packId}${error.schemaPath}`,
    });
  }
  return issues;
}
