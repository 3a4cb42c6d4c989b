/**
 * Recording: a Traffic selection or an exported capture turned into a collection. Every request
 * Patchbay sent becomes a step (MCP requests but the handshake, A2A operations of any dialect and
 * binding, NATS requests, fisk-ai tool calls and tasks); each peer becomes a target whose address
 * is a variable of the environment "recorded"; each step asserts the outcome it had and a valid
 * answer; and an id a later request reuses from an earlier answer becomes a captured value.
 */
import { isJsonObject } from "../json/json-object.ts";
import { utf8Text } from "../wire/decode.ts";
import type { WireEntry } from "../wire/wire-entry.ts";
import type { Binding, Dialect } from "../a2a/dialect.ts";
import type { Assertion, Collection, StepAction, TargetSpec } from "./collection-types.ts";
import { captureExchanges, wireEntriesOf, type Exchange } from "./diff-captures.ts";
import { a2aOutcomeAssertion, a2aRecordedBody, cardFetchBase, cardsFromFetches, commonDialect, headerDialect, readA2aRequest, type A2aRequestReading } from "./record-a2a.ts";
import { linkCaptures, type DraftStep } from "./record-links.ts";
import { natsOutcomeAssertion, natsRecordedBody, readNatsRequest } from "./record-nats.ts";
import { uniqueName } from "./save-step.ts";

export const RECORDED_ENVIRONMENT = "recorded";
export const DEFAULT_NATS_SERVER = "nats://127.0.0.1:4222";

export interface RecordOptions {
  readonly name: string;
  readonly description?: string;
  /** Wire entries name NATS subjects, not the server; this is the `natsServer` variable's value. */
  readonly natsServer?: string;
}

export interface RecordSkip {
  /** The frame's seq in the capture. */
  readonly seq: number;
  readonly reason: string;
}

export interface RecordResult {
  readonly collection: Collection;
  /** Frames that did not become steps, and why. */
  readonly skipped: readonly RecordSkip[];
  /** What a person should check: guessed addresses, steps without an outcome assertion. */
  readonly notes: readonly string[];
}

/** Options a recording cannot start from (no collection name). */
export class RecordInputError extends Error {
  override readonly name = "RecordInputError";
}

/** The targets found so far and the variable holding each address. */
class TargetBook {
  readonly specs: Record<string, TargetSpec> = {};
  readonly variables: Record<string, string> = {};
  readonly #byKey = new Map<string, string>();
  readonly #varOf = new Map<string, string>();

  #variable(base: string, value: string): string {
    const known = this.#varOf.get(`${base}\u0000${value}`);
    if (known) return known;
    const name = uniqueName(base, new Set(Object.keys(this.variables)), "");
    this.variables[name] = value;
    this.#varOf.set(`${base}\u0000${value}`, name);
    return name;
  }

  target(key: string, base: string, make: () => TargetSpec): string {
    const known = this.#byKey.get(key);
    if (known) return known;
    const name = uniqueName(base, new Set(Object.keys(this.specs)), "-");
    this.specs[name] = make();
    this.#byKey.set(key, name);
    return name;
  }

  mcp(where: string): string | undefined {
    if (where.startsWith("stdio:")) {
      const command = where.slice("stdio:".length);
      return this.target(`mcp ${where}`, "mcp", () => ({ protocol: "mcp", command: `{{${this.#variable("mcpCommand", command)}}}` }));
    }
    if (!/^https?:\/\//i.test(where)) return undefined;
    return this.target(`mcp ${where}`, "mcp", () => ({ protocol: "mcp", url: `{{${this.#variable("mcpUrl", where)}}}` }));
  }

  a2a(card: string, binding: Binding, dialect: Dialect | undefined): string {
    return this.target(`a2a ${card} ${binding} ${dialect ?? ""}`, "a2a", () => ({ protocol: "a2a", card: `{{${this.#variable("a2aUrl", card)}}}`, binding, ...(dialect ? { dialect } : {}) }));
  }

  nats(server: string): string {
    return this.target(`nats ${server}`, "nats", () => ({ protocol: "nats", server: `{{${this.#variable("natsServer", server)}}}` }));
  }
}

const outcomeAssertions = (outcome: Assertion | undefined): Assertion[] => (outcome ? [outcome, { kind: "valid" }] : [{ kind: "valid" }]);

function mcpOutcome(method: string, responses: readonly WireEntry[], id: unknown): Assertion | undefined {
  const answer = responses.map((r) => r.decoded.json).find((j) => isJsonObject(j) && j.id === id && ("result" in j || "error" in j));
  if (!isJsonObject(answer)) return undefined;
  if (isJsonObject(answer.error)) {
    const code = answer.error.code;
    return Number.isSafeInteger(code) ? { kind: "outcome", is: "json-rpc-error", code: code as number } : { kind: "outcome", is: "json-rpc-error" };
  }
  return { kind: "outcome", is: method === "tools/call" && isJsonObject(answer.result) && answer.result.isError === true ? "is-error" : "result" };
}

function mcpStepName(method: string, params: Record<string, unknown> | undefined): string {
  const detail = typeof params?.name === "string" ? params.name : typeof params?.uri === "string" ? params.uri : "";
  return detail ? `${method} ${detail}` : method;
}

interface Context {
  readonly book: TargetBook;
  readonly drafts: DraftStep[];
  readonly skipped: RecordSkip[];
  readonly notes: string[];
  readonly natsServer: string;
  readonly cards: ReturnType<typeof cardsFromFetches>;
  readonly a2aDialects: Map<string, Dialect | undefined>;
}

function add(cx: Context, name: string, target: string, action: StepAction, outcome: Assertion | undefined, body: unknown): void {
  const unique = uniqueName(name, new Set(cx.drafts.map((d) => d.name)));
  if (!outcome) cx.notes.push(`step "${unique}": the recorded answer shows no outcome to assert; only "valid" is asserted`);
  cx.drafts.push({ name: unique, target, action, assert: outcomeAssertions(outcome), body, capture: {} });
}

function recordMcp(cx: Context, req: WireEntry, ex: Exchange): void {
  const json = req.decoded.json;
  if (Array.isArray(json)) return void cx.skipped.push({ seq: req.seq, reason: "a JSON-RPC batch: a step sends one request" });
  if (!isJsonObject(json) || typeof json.method !== "string") return void cx.skipped.push({ seq: req.seq, reason: "not a JSON-RPC request" });
  if (!("id" in json)) return void cx.skipped.push({ seq: req.seq, reason: `${json.method}: a notification, not a step` });
  if (json.method === "initialize") return void cx.skipped.push({ seq: req.seq, reason: "initialize: a step's session opens itself" });
  const target = cx.book.mcp(req.target);
  if (!target) return void cx.skipped.push({ seq: req.seq, reason: `the frame names no server Patchbay can reach again (${req.target})` });
  const params = isJsonObject(json.params) ? json.params : undefined;
  const action: StepAction = { protocol: "mcp", method: json.method, ...(params ? { params } : {}) };
  const body = ex.responses.map((r) => r.decoded.json).find((j) => isJsonObject(j) && j.id === json.id);
  add(cx, mcpStepName(json.method, params), target, action, mcpOutcome(json.method, ex.responses, json.id), body);
}

function a2aCard(cx: Context, reading: A2aRequestReading): string {
  const card = cx.cards.byInterface.get(reading.interfaceUrl);
  if (card) return card;
  const origin = safeOrigin(reading.interfaceUrl);
  const note = `no Agent Card fetch for ${reading.interfaceUrl} in the capture: its card is looked for at ${origin}`;
  if (!cx.notes.includes(note)) cx.notes.push(note);
  return origin;
}

function recordA2a(cx: Context, req: WireEntry, ex: Exchange, reading: A2aRequestReading | undefined): void {
  if (cardFetchBase(req) !== undefined) return void cx.skipped.push({ seq: req.seq, reason: "the Agent Card fetch: a target reads its card itself" });
  if (!reading) return void cx.skipped.push({ seq: req.seq, reason: `not an A2A operation of any dialect (${req.target})` });
  const card = a2aCard(cx, reading);
  const dialect = cx.a2aDialects.get(`${card} ${reading.binding}`);
  const target = cx.book.a2a(card, reading.binding, dialect);
  const { operation, text, message, taskId, contextId } = reading;
  const action: StepAction = {
    protocol: "a2a",
    operation,
    ...(text !== undefined ? { text } : {}),
    ...(message !== undefined ? { message } : {}),
    ...(taskId !== undefined ? { taskId } : {}),
    ...(contextId !== undefined ? { contextId } : {}),
  };
  if ((operation === "send" || operation === "stream") && text === undefined && message === undefined) {
    cx.notes.push(`step "${operation}" (frame ${req.seq}): the recorded request carries no message; add "text" before running it`);
  }
  add(cx, operation, target, action, a2aOutcomeAssertion(ex.responses, reading.binding), a2aRecordedBody(ex.responses, reading.binding));
}

function recordNats(cx: Context, req: WireEntry, ex: Exchange): void {
  if (ex.responses.length === 0) return void cx.skipped.push({ seq: req.seq, reason: req.target.startsWith("_INBOX.") ? "a reply to an inbox, not a request" : "a publish that got no reply, not a request" });
  const payload = utf8Text(req.bytes);
  if (payload === null) return void cx.skipped.push({ seq: req.seq, reason: "the payload is not UTF-8 text, which a request step carries" });
  const action = readNatsRequest(req, payload);
  const name = action.kind === "tool" ? `tool ${action.identity} ${action.tool}` : action.kind === "task" ? `task ${action.identity}` : `request ${action.subject}`;
  add(cx, name, cx.book.nats(cx.natsServer), action, natsOutcomeAssertion(action, ex.responses), natsRecordedBody(ex.responses));
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** The dialect per A2A card and binding: the A2A-Version header or the card's, else the newest every request there fits. */
function a2aDialects(cards: Context["cards"], readings: Map<Exchange, A2aRequestReading>): Map<string, Dialect | undefined> {
  const fits = new Map<string, Dialect[][]>();
  for (const [ex, r] of readings) {
    const card = cards.byInterface.get(r.interfaceUrl) ?? safeOrigin(r.interfaceUrl);
    const declared = ex.request ? headerDialect(ex.request) : undefined;
    const ofCard = cards.dialectOf.get(card);
    const fit = declared ? [declared] : ofCard && r.dialects.includes(ofCard) ? [ofCard] : [...r.dialects];
    const key = `${card} ${r.binding}`;
    fits.set(key, [...(fits.get(key) ?? []), fit]);
  }
  return new Map([...fits].map(([k, v]) => [k, commonDialect(v)]));
}

/** The collection, with what was left out and what to check. Throws RecordInputError for bad options or input. */
export function recordCapture(entries: unknown, options: RecordOptions): RecordResult {
  if (!isJsonObject(options) || typeof options.name !== "string" || options.name.trim() === "") {
    throw new RecordInputError("a recorded collection needs a name: pass options.name, a non-empty string");
  }
  const notes: string[] = [];
  let list: WireEntry[];
  try {
    list = wireEntriesOf(entries, "capture", notes);
  } catch (err) {
    throw new RecordInputError((err as Error).message);
  }
  const exchanges = captureExchanges(list, false);
  const cards = cardsFromFetches(exchanges.flatMap((ex) => (ex.request && ex.request.channel === "a2a-http" ? [{ request: ex.request, responses: ex.responses }] : [])));
  const readings = new Map<Exchange, A2aRequestReading>();
  for (const ex of exchanges) {
    if (ex.request?.channel !== "a2a-http" || ex.request.direction !== "out") continue;
    const r = readA2aRequest(ex.request);
    if (r) readings.set(ex, r);
  }
  const cx: Context = { book: new TargetBook(), drafts: [], skipped: [], notes, natsServer: options.natsServer ?? DEFAULT_NATS_SERVER, cards, a2aDialects: a2aDialects(cards, readings) };
  for (const ex of exchanges) {
    const req = ex.request;
    if (!req) {
      const first = ex.responses[0]!;
      cx.skipped.push({ seq: first.seq, reason: `an answer whose request is not in the capture${first.note ? ` (${first.note})` : ""}` });
      continue;
    }
    if (req.direction !== "out") {
      cx.skipped.push({ seq: req.seq, reason: `${ex.ref.method}: asked by the peer, not by Patchbay` });
      continue;
    }
    if (req.channel === "mcp") recordMcp(cx, req, ex);
    else if (req.channel === "a2a-http") recordA2a(cx, req, ex, readings.get(ex));
    else recordNats(cx, req, ex);
  }
  if (Object.values(cx.book.specs).some((t) => t.protocol === "nats") && options.natsServer === undefined) {
    notes.push(`the capture does not say which NATS server it used: natsServer is ${DEFAULT_NATS_SERVER}; change it in environment "${RECORDED_ENVIRONMENT}"`);
  }
  const steps = linkCaptures(cx.drafts, Object.keys(cx.book.variables));
  const collection: Collection = {
    name: options.name.trim(),
    description: options.description ?? `Recorded from ${list.length} frame${list.length === 1 ? "" : "s"} of captured traffic.`,
    targets: cx.book.specs,
    environments: { [RECORDED_ENVIRONMENT]: cx.book.variables },
    steps,
  };
  return { collection, skipped: cx.skipped, notes };
}

/** A Traffic selection or an exported capture as a collection (see recordCapture for what was left out). */
export function collectionFromCapture(entries: unknown, options: RecordOptions): Collection {
  return recordCapture(entries, options).collection;
}
