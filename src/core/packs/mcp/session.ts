import { isJsonObject } from "../../json/index.ts";
import { jsonRpcRules } from "../../validation/json-rpc.ts";
import { isAllowedMethod, quotedChoice } from "../../validation/near-miss.ts";
import type { Candidate, CheckTools, FamilySession, Issue, RawMessage, Recognition, SessionOptions, VersionBasis } from "../../validation/types.ts";
import { kindMethod, type CandidateFactory, type VersionHint } from "./candidates.ts";
import { phrases } from "./phrases.ts";
import { ANY_RESULT, type Guess, guessPayload, guessResult } from "./shapes.ts";
import { checkArguments, checkStructuredContent, learnTools, type ToolSchemas } from "./tool-checks.ts";
import { atLeast, type McpVersion, nearestVersion } from "./versions.ts";

const NOT_AN_OBJECT: Recognition = { candidates: [], reason: "MCP messages are JSON objects" };
const NO_SHAPE: Recognition = { candidates: [], reason: "not a JSON-RPC message, and no MCP definition's shape recognised" };
const SELF_DESCRIBED: Recognition = { candidates: [], reason: "it names its own protocol in a \"protocol\" member, which no MCP message has" };
/** Below the recognition floor: a JSON-RPC message missing its method, result and error is judged as a bare request or notification, so the verdict names what it lacks. */
const MEMBERLESS_SCORE = 0.2;
const MEMBERLESS = "has jsonrpc but no method (as a string), result or error";
const VERSION_TEXT = /^\d{4}-\d{2}-\d{2}$/;
const MAX_PENDING = 10_000;
/** Most messages have no notes; they share one empty list. */
const NO_NOTES: readonly string[] = [];

/** 2026-07-28 embeds these requests (without jsonrpc and id) in input_required results. */
const EMBEDDED: Readonly<Record<string, string>> = {
  "sampling/createMessage": "CreateMessageRequest",
  "roots/list": "ListRootsRequest",
  "elicitation/create": "ElicitRequest",
};

/** Error codes with a definition of their own, by the kind that checks them. */
const SPECIFIC_ERRORS: Readonly<Record<number, string>> = {
  [-32042]: "error:url-elicitation-required",
  [-32020]: "error:header-mismatch",
  [-32021]: "error:missing-client-capability",
  [-32022]: "error:unsupported-protocol-version",
};

type PinSource = "request" | "result";

const META_VERSION_POINTER = "/params/_meta/io.modelcontextprotocol~1protocolVersion";

/**
 * Naming the version in `_meta` is a 2026-07-28 mechanism; before it the version is agreed by
 * initialize alone, so a request that names an older version there mixes two eras.
 */
function metaVersionRule(params: unknown, judged: McpVersion): Issue | undefined {
  const declared = declaredVersion(params);
  if (typeof declared !== "string" || atLeast(judged, "2026-07-28")) return undefined;
  const message = `Requests name their version in _meta from MCP 2026-07-28 on; ${judged} agrees it in initialize, so this request mixes two eras.`;
  return { pointer: META_VERSION_POINTER, message, severity: "error", source: "rule", rule: "mcp.meta-version-era" };
}

/** The errors that answer a request whose id could not be read: parse error and invalid request. */
const UNREADABLE_REQUEST_CODES: ReadonlySet<unknown> = new Set([-32700, -32600]);

/**
 * From 2025-11-25 MCP lets an error about an unreadable request omit its id; JSON-RPC 2.0 asks
 * for "id": null there, so the omission is worth a warning, not an error. Any other error answers
 * a request it could read, and must name it.
 */
function idOptional(issue: Issue, chosen: Candidate, value: Record<string, unknown>): boolean {
  if (issue.rule !== "jsonrpc.id" || issue.pointer !== "" || chosen.kind.role !== "error") return false;
  const code = isJsonObject(value.error) ? value.error.code : undefined;
  return UNREADABLE_REQUEST_CODES.has(code) && atLeast(chosen.pack.version as McpVersion, "2025-11-25");
}

/** The protocol version a request's own `_meta` declares (2026-07-28 requests carry it). */
function declaredVersion(params: unknown): unknown {
  if (!isJsonObject(params)) return undefined;
  const meta = params._meta;
  return isJsonObject(meta) ? meta["io.modelcontextprotocol/protocolVersion"] : undefined;
}

function isId(value: unknown): value is string | number {
  return typeof value === "string" || typeof value === "number";
}

/** MCP's tasks/* share names with A2A's; MCP names a task by `taskId`, A2A by `id`. */
function taskScore(method: string, params: unknown): number {
  if (!isJsonObject(params)) return 0.6;
  if (method === "tasks/list") {
    for (const key in params) if (key !== "cursor" && key !== "_meta") return 0.35;
    return 0.7;
  }
  if (typeof params.taskId === "string") return 0.95;
  return "id" in params ? 0.35 : 0.6;
}

function byScore(a: Candidate, b: Candidate): number {
  return b.score - a.score;
}

/**
 * One batch's view of MCP: the negotiated version, which request each pending id belongs to, and
 * the tools listed so far, used to classify responses and to check tool calls and results.
 */
export class McpSession implements FamilySession {
  readonly #factory: CandidateFactory;
  #pin: VersionHint | null = null;
  #pinSource: PinSource | null = null;
  #seen = false;
  readonly #pending = new Map<string | number, string>();
  readonly #calls = new Map<string | number, string>();
  readonly #tools = new Map<string, ToolSchemas>();

  readonly #extensions: readonly string[] | undefined;

  constructor(factory: CandidateFactory, options: SessionOptions = {}) {
    this.#factory = factory;
    this.#extensions = options.extensionMethods;
  }

  /** `declared`: the message names its own version; `negotiated`: it pins the batch for later messages. */
  #hintFrom(value: unknown, why: string, basis: VersionBasis): VersionHint | null {
    return typeof value === "string" && VERSION_TEXT.test(value) ? this.#factory.hint(nearestVersion(value), why, basis) : null;
  }

  /** The version this batch negotiated, if any message has pinned one. */
  get pinnedVersion(): McpVersion | null {
    return this.#pin?.version ?? null;
  }

  recognise(value: unknown, _raw: RawMessage): Recognition {
    if (!isJsonObject(value)) return NOT_AN_OBJECT;
    const method = value.method;
    if (typeof method === "string") return this.#recogniseCall(value, method);
    if ("result" in value || "error" in value) return this.#recogniseResponse(value);
    if ("jsonrpc" in value) return { candidates: this.#factory.make("id" in value ? "request" : "notification", MEMBERLESS_SCORE, MEMBERLESS, this.#pin) };
    // A message that names its own protocol (fisk-ai does) is no bare MCP payload.
    if (typeof value.protocol === "string") return SELF_DESCRIBED;
    return this.#recognisePayload(value);
  }

  #recogniseCall(value: Record<string, unknown>, method: string): Recognition {
    const params = value.params;
    const hint =
      this.#hintFrom(declaredVersion(params), "declared in params._meta", "declared") ??
      (method === "initialize" && isJsonObject(params) ? this.#hintFrom(params.protocolVersion, "proposed by this initialize request", "declared") : null) ??
      this.#pin;
    const isRequest = "id" in value;
    const hasJsonRpc = "jsonrpc" in value;
    // Beyond the hint, only these two members matter, except to a tasks/* method (its score reads params).
    const shape = (isRequest ? 2 : 0) + (hasJsonRpc ? 1 : 0);
    const cacheable = !method.startsWith("tasks/");
    const allowed = isAllowedMethod(method, this.#extensions);
    const recalled = cacheable && !allowed ? this.#factory.recalledCall(method, hint, shape) : undefined;
    if (recalled) return recalled;
    const groups: (readonly Candidate[])[] = [];
    const embedded = EMBEDDED[method];
    if (embedded && !isRequest && !hasJsonRpc) {
      groups.push(this.#factory.make(embedded, 0.9, "has a method but no jsonrpc or id: a request embedded in an input_required result", hint));
    }
    const { request: requestKind, notification: notificationKind } = this.#factory.methodKinds(method);
    if (requestKind !== null) {
      const base = method.startsWith("tasks/") ? taskScore(method, params) : 0.95;
      groups.push(this.#factory.make(requestKind, isRequest ? base : base - 0.1, isRequest ? phrases(method).said : phrases(method).noId, hint));
    }
    if (notificationKind !== null) {
      groups.push(this.#factory.make(notificationKind, isRequest ? 0.85 : 0.95, isRequest ? phrases(method).withId : phrases(method).said, hint));
    }
    if (groups.length === 0) {
      const generic = isRequest ? "request" : "notification";
      const base = method.startsWith("notifications/") ? 0.4 : 0.25;
      if (allowed) {
        // Session-specific, so never remembered in the shared table.
        return { candidates: this.#factory.make(generic, 0.6, "a JSON-RPC message whose method is an extension you allowed", hint) };
      }
      groups.push(...this.#nearMisses(method, params, isRequest, hint));
      groups.push(this.#factory.make(generic, base, "a JSON-RPC message whose method MCP does not define", hint));
    }
    const recognition: Recognition = { candidates: this.#merge(groups) };
    if (cacheable) this.#factory.rememberCall(method, hint, shape, recognition);
    return recognition;
  }

  /**
   * A method one or two edits from an MCP method is most likely that method mistyped: it is
   * judged as that method (so the rest of the message is checked too), its name the first error.
   */
  #nearMisses(method: string, params: unknown, isRequest: boolean, hint: VersionHint | null): (readonly Candidate[])[] {
    const groups: (readonly Candidate[])[] = [];
    for (const near of this.#factory.nearMethods(method).slice(0, 3)) {
      const kinds = this.#factory.methodKinds(near.name);
      const kindId = isRequest ? (kinds.request ?? kinds.notification) : (kinds.notification ?? kinds.request);
      if (kindId === null) continue;
      let base = near.edits === 1 ? 0.7 : 0.6;
      // MCP and A2A share tasks/* names: the task's member name says whose near miss it is.
      if (near.name.startsWith("tasks/")) base -= Math.max(0, 0.95 - taskScore(near.name, params)) / 2;
      const reason = `method "${method}" is not MCP's, but ${near.edits === 1 ? "one edit" : "two edits"} from "${near.name}"`;
      groups.push(this.#factory.build(kindId, base, reason, hint));
    }
    return groups;
  }

  #recogniseResponse(value: Record<string, unknown>): Recognition {
    const id = value.id;
    const answered = isId(id) ? this.#pending.get(id) : undefined;
    if ("error" in value && !("result" in value)) return { candidates: this.#merge(this.#errorCandidates(value, answered)) };
    const result = value.result;
    const record = isJsonObject(result) ? result : null;
    const hint =
      (record && "resultType" in record ? this.#factory.hint("2026-07-28", "implied by resultType", "evidence") : null) ??
      (record && answered === "initialize" ? this.#hintFrom(record.protocolVersion, "agreed by this initialize result", "declared") : null) ??
      this.#pin;
    const groups: (readonly Candidate[])[] = [];
    if (answered !== undefined) {
      const kindId = this.#factory.methodKinds(answered).result;
      if (kindId !== null) groups.push(this.#factory.make(kindId, 0.97, phrases(answered).answered, hint));
      else groups.push(this.#factory.make("result", 0.6, "answers an earlier JSON-RPC request with the same id", hint));
      if (record && isJsonObject(record.task)) groups.push(this.#factory.make("task-created:result", 0.96, "holds a created task: the answer to a task-augmented request", hint));
      return { candidates: this.#merge(groups) };
    }
    const guesses: readonly Guess[] = record ? guessResult(record) : [ANY_RESULT];
    if (record && typeof record.protocolVersion === "string" && isJsonObject(record.serverInfo)) {
      const agreed = this.#hintFrom(record.protocolVersion, "named by this initialize result", "declared");
      for (const g of guesses) groups.push(this.#factory.make(g.kindId, g.base, g.reason, agreed ?? hint));
    } else {
      for (const g of guesses) groups.push(this.#factory.make(g.kindId, g.base, g.reason, hint));
    }
    if (guesses[0] !== ANY_RESULT) groups.push(this.#factory.make(ANY_RESULT.kindId, ANY_RESULT.base, ANY_RESULT.reason, hint));
    return { candidates: this.#merge(groups) };
  }

  #errorCandidates(value: Record<string, unknown>, answered: string | undefined): (readonly Candidate[])[] {
    const error = value.error;
    const errorCode = isJsonObject(error) ? error.code : undefined;
    const specific = typeof errorCode === "number" ? SPECIFIC_ERRORS[errorCode] : undefined;
    const hint = this.#pin;
    let base = answered !== undefined ? 0.95 : this.#seen ? 0.8 : 0.6;
    const known = answered !== undefined && this.#factory.methodKinds(answered).request !== null;
    const reason = known ? phrases(answered).failed : answered !== undefined ? "answers an earlier JSON-RPC request with an error" : "a JSON-RPC error response";
    const groups: (readonly Candidate[])[] = [];
    if (specific && this.#factory.has(specific) && (hint === null || this.#factory.hasIn(specific, hint.version))) {
      // These codes are MCP's own: the code alone is as decisive as a matched request id.
      groups.push(this.#factory.make(specific, Math.max(0.95, Math.min(0.99, base + 0.02)), "its error code has a definition of its own", hint));
      // The code promises a particular shape: an error that breaks it is not rescued by the general kind.
      base -= 0.3;
    }
    groups.push(this.#factory.make("error", base, reason, hint));
    return groups;
  }

  #recognisePayload(value: Record<string, unknown>): Recognition {
    const guesses = guessPayload(value);
    if (guesses.length === 0) return NO_SHAPE;
    const hint =
      ("resultType" in value ? this.#factory.hint("2026-07-28", "implied by resultType", "evidence") : null) ??
      this.#hintFrom(value.protocolVersion, "named in protocolVersion", "declared") ??
      this.#pin;
    return { candidates: this.#merge(guesses.map((g) => this.#factory.make(g.kindId, g.base, g.reason, hint))) };
  }

  check(value: unknown, chosen: Candidate, _raw: RawMessage, tools: CheckTools): Issue[] {
    if (!isJsonObject(value) || chosen.kind.role === "payload") return [];
    // Most messages break no JSON-RPC rule: their list is then the one to add to, with no copies made.
    let issues = jsonRpcRules(value);
    if (issues.length > 0) issues = issues.map((issue) => (idOptional(issue, chosen, value) ? { ...issue, severity: "warning" as const } : issue));
    // A method that is there but no string is faulted at /method by the schema; "needs a method" would only repeat it.
    if ("method" in value && issues.length > 0) issues = issues.filter((issue) => issue.rule !== "jsonrpc.shape");
    const methodIssue = this.#methodRule(value.method, chosen);
    if (methodIssue) issues.unshift(methodIssue);
    const eraIssue = metaVersionRule(value.params, chosen.pack.version as McpVersion);
    if (eraIssue) issues.push(eraIssue);
    if (chosen.kind.role === "notification" && "id" in value) {
      issues.push({ pointer: "/id", message: "A notification must not carry an id; a message with an id is a request and expects an answer.", severity: "error", source: "rule", rule: "mcp.notification-id" });
    }
    const draft = chosen.pack.draft;
    if (chosen.kind.id === "tools/call:request" && this.#tools.size > 0) issues.push(...checkArguments(value, this.#tools, tools, draft));
    if (chosen.kind.id === "tools/call:result" && this.#tools.size > 0 && isId(value.id)) {
      const name = this.#calls.get(value.id);
      const tool = name === undefined ? undefined : this.#tools.get(name);
      if (name !== undefined && tool) {
        const required = atLeast(chosen.pack.version as McpVersion, "2025-06-18");
        issues.push(...checkStructuredContent(value, name, tool, tools, draft, required));
      }
    }
    return issues;
  }

  /** A method MCP does not define is an error, with the near names, unless the user allowed it as an extension. */
  #methodRule(method: unknown, chosen: Candidate): Issue | undefined {
    if (typeof method !== "string" || isAllowedMethod(method, this.#extensions)) return undefined;
    const { role, generic, id } = chosen.kind;
    if (role !== "request" && role !== "notification") return undefined;
    const meant = kindMethod(id);
    if (!generic && (meant === undefined || meant === method)) return undefined;
    const version = chosen.pack.version as McpVersion;
    const near = generic ? this.#factory.nearMethods(method).filter((n) => this.#factory.methodKinds(n.name)[role] !== null) : [];
    const names = meant !== undefined && meant !== method ? [meant] : near.filter((n) => this.#definedIn(n.name, version)).map((n) => n.name);
    const hint = names.length > 0 ? ` Did you mean ${quotedChoice(names.slice(0, 3))}?` : " If it is a deliberate extension, allow it as one (--allow-method).";
    const message = `MCP ${version} defines no method "${method}".${hint}`;
    return { pointer: "/method", message, severity: "error", source: "rule", rule: "mcp.unknown-method" };
  }

  #definedIn(method: string, version: McpVersion): boolean {
    const kinds = this.#factory.methodKinds(method);
    return [kinds.request, kinds.notification].some((k) => k !== null && this.#factory.hasIn(k, version));
  }

  notes(value: unknown, chosen: Candidate): readonly string[] {
    if (!isJsonObject(value)) return NO_NOTES;
    const result = chosen.kind.role === "payload" ? value : value.result;
    if (!isJsonObject(result)) return NO_NOTES;
    const failed = (chosen.kind.id === "tools/call:result" || chosen.kind.id === "CallToolResult") && result.isError === true;
    const pending = result.resultType === "input_required";
    if (!failed && !pending) return NO_NOTES;
    const notes: string[] = [];
    if (failed) notes.push("The tool reported a failure (isError: true). That is a valid result: the protocol exchange succeeded even though the tool did not.");
    if (pending) notes.push("The server needs more input before it can answer (input_required): the client retries the request with inputResponses. A step, not a failure.");
    return notes;
  }

  observe(value: unknown, chosen: Candidate, _valid: boolean): void {
    // Only our own messages teach us anything; another family's ids and methods are not MCP's.
    if (!isJsonObject(value) || chosen.pack.family !== "mcp") return;
    this.#seen = true;
    const { id: kindId, role } = chosen.kind;
    const id = value.id;
    if (role === "request") {
      const method = value.method;
      if (isId(id) && typeof method === "string") this.#remember(this.#pending, id, method);
      const params = value.params;
      if (!isJsonObject(params)) return;
      if (kindId === "tools/call:request" && isId(id) && typeof params.name === "string") this.#remember(this.#calls, id, params.name);
      if (kindId === "initialize:request") this.#pinTo(this.#hintFrom(params.protocolVersion, "proposed by initialize", "negotiated"), "request");
      this.#pinTo(this.#hintFrom(declaredVersion(params), "declared in request _meta", "negotiated"), "result");
      return;
    }
    if (role === "result" || role === "error") {
      const result = value.result;
      if (kindId === "initialize:result" && isJsonObject(result)) this.#pinTo(this.#hintFrom(result.protocolVersion, "agreed by initialize", "negotiated"), "result");
      if (kindId === "tools/list:result") learnTools(result, this.#tools);
      if (isId(id)) {
        this.#pending.delete(id);
        this.#calls.delete(id);
      }
      return;
    }
    if (kindId === "ListToolsResult") learnTools(value, this.#tools);
    if (kindId === "InitializeResult") this.#pinTo(this.#hintFrom(value.protocolVersion, "agreed by initialize", "negotiated"), "result");
  }

  #merge(groups: readonly (readonly Candidate[])[]): readonly Candidate[] {
    const [first, second] = groups;
    if (groups.length === 1 && first) return first;
    if (groups.length === 2 && first && second) return this.#factory.merge(first, second);
    return groups.flat().sort(byScore);
  }

  /** A result's version beats a request's proposal; a later result beats an earlier one. */
  #pinTo(hint: VersionHint | null, source: PinSource): void {
    if (!hint || (source === "request" && this.#pinSource === "result")) return;
    this.#pin = hint;
    this.#pinSource = source;
  }

  /**
   * Each map's eviction iterator: everything before it was evicted, so its next key is the oldest
   * (a fresh keys().next() would walk every deleted slot before the first live one).
   */
  readonly #oldest = new Map<Map<string | number, string>, Iterator<string | number>>();

  #remember(map: Map<string | number, string>, id: string | number, value: string): void {
    if (map.size >= MAX_PENDING && !map.has(id)) {
      let keys = this.#oldest.get(map);
      if (!keys) this.#oldest.set(map, (keys = map.keys()));
      const oldest = keys.next();
      if (!oldest.done) map.delete(oldest.value);
    }
    map.set(id, value);
  }
}

