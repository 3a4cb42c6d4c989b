// Turns a wire frame into a question for the validation worker (the negotiated version's pack,
// and the result kind of the request it answers), and the worker's verdicts into a frame verdict.
import { isJsonObject } from "../../../core/json/index.ts";
import { REQUEST_METHODS } from "../../../core/packs/mcp/methods.ts";
import { type McpVersion, nearestVersion } from "../../../core/packs/mcp/versions.ts";
import { judgedText } from "../../../core/validation/report.ts";
import type { Issue, Override, Verdict, VerdictStatus } from "../../../core/validation/types.ts";
import { utf8Text, type WireDirection, type WireEntry } from "../../../core/wire/index.ts";

/** Larger frames are listed but not checked: the worker would spend seconds on one. */
export const MAX_CHECKED_BYTES = 4 * 1024 * 1024;
/** Elements of a batch frame checked one by one; the rest are counted. */
export const MAX_BATCH_ELEMENTS = 20;
const MAX_PROBLEMS = 3;
/** The only MCP version whose schema defines JSON-RPC batches. */
const BATCH_VERSION: McpVersion = "2025-03-26";

export type FrameVerdict =
  | { readonly status: "checking" }
  | { readonly status: "not-checked"; readonly reason: string }
  | { readonly status: VerdictStatus; readonly kind?: string; readonly problems: readonly string[]; readonly judged?: string };

/** One frame's question to the worker. */
export interface CheckJob {
  readonly seq: number;
  readonly direction: WireDirection;
  readonly version: McpVersion;
  /** The frame's own text, or each element of a batch. */
  readonly texts: readonly string[];
  readonly batch: boolean;
  /** Batch elements past MAX_BATCH_ELEMENTS, not checked. */
  readonly unchecked: number;
  readonly override: Override;
  /** Asked when the answered request's result kind does not exist in this version. */
  readonly fallback?: Override;
  /** Why the message cannot be any MCP message, said better than "nothing matches". */
  readonly shape?: string;
}

function shapeProblem(json: unknown): string | undefined {
  if (json === undefined) return undefined;
  if (!isJsonObject(json)) return `A JSON-RPC message is a JSON object, not ${json === null ? "null" : typeof json === "object" ? "an array" : `a ${typeof json}`}.`;
  if (!("method" in json) && !("result" in json) && !("error" in json)) return "It has no method, result or error: it is neither a request, a notification nor a response.";
  return undefined;
}

const KNOWN_METHODS = new Set(REQUEST_METHODS.map((m) => m.method));

/**
 * What to ask about a frame, or its verdict when it cannot be asked. `answering` is the method of
 * the request a response answers, when the frame is one and the request was seen.
 */
export function checkJob(entry: WireEntry, negotiatedVersion: string, answering: string | undefined): CheckJob | FrameVerdict {
  if (entry.size > MAX_CHECKED_BYTES) return { status: "not-checked", reason: `Not checked: larger than the ${MAX_CHECKED_BYTES / 1024 / 1024} MB checked per frame.` };
  if (entry.size === 0) return { status: "unparseable", problems: ["The frame is empty."] };
  const text = utf8Text(entry.bytes);
  if (text === null) return { status: "unparseable", problems: ["The frame is not UTF-8 text."] };
  const version = nearestVersion(negotiatedVersion);
  const override: Override = { packId: `mcp/${version}` };
  const base = { seq: entry.seq, direction: entry.direction, version, override };
  const json = entry.decoded.json;
  if (Array.isArray(json)) {
    const texts = json.slice(0, MAX_BATCH_ELEMENTS).map((m) => JSON.stringify(m));
    return { ...base, texts, batch: true, unchecked: Math.max(0, json.length - MAX_BATCH_ELEMENTS) };
  }
  const isResult = isJsonObject(json) && "result" in json && !("error" in json);
  if (answering !== undefined && isResult && KNOWN_METHODS.has(answering)) {
    return { ...base, texts: [text], batch: false, unchecked: 0, override: { ...override, kindId: `${answering}:result` }, fallback: override };
  }
  const shape = shapeProblem(json);
  return { ...base, texts: [text], batch: false, unchecked: 0, ...(shape !== undefined ? { shape } : {}) };
}

function issueText(issue: Issue): string {
  return issue.pointer === "" ? issue.message : `${issue.pointer}: ${issue.message}`;
}

const WORSE: Readonly<Record<VerdictStatus, number>> = { valid: 0, "error-response": 1, unrecognised: 2, unparseable: 3, invalid: 4 };

/** A verdict's status and problems, with a message sent the wrong way counted as invalid. */
function judged(verdict: Verdict, direction: WireDirection, shape: string | undefined): { status: VerdictStatus; problems: string[] } {
  // Rules and the schema often fault the same member; its first problem says enough.
  const faulted = new Set<string>();
  const problems = verdict.issues.filter((i) => i.severity === "error" && !faulted.has(i.pointer) && faulted.add(i.pointer)).map(issueText);
  if (verdict.status === "unrecognised") problems.push(shape ?? verdict.evidence[0] ?? "Not an MCP message.");
  const label = verdict.kindLabel ?? "This message";
  if (verdict.direction === "client-to-server" && direction === "in") problems.unshift(`${label} travels from client to server, but the server sent it.`);
  else if (verdict.direction === "server-to-client" && direction === "out") problems.unshift(`${label} travels from server to client, but the client sent it.`);
  else return { status: verdict.status, problems };
  return { status: "invalid", problems };
}

/** The frame's verdict from the worker's verdict on each of its messages. */
export function frameVerdict(job: CheckJob, verdicts: readonly Verdict[]): FrameVerdict {
  let status: VerdictStatus = "valid";
  const problems: string[] = [];
  verdicts.forEach((verdict, i) => {
    const own = judged(verdict, job.direction, job.shape);
    if (WORSE[own.status] > WORSE[status]) status = own.status;
    problems.push(...(job.batch ? own.problems.map((p) => `element ${i}: ${p}`) : own.problems));
  });
  if (job.batch) {
    if (verdicts.length === 0) problems.unshift("An empty batch: JSON-RPC answers it with an Invalid Request error.");
    if (job.version !== BATCH_VERSION) problems.unshift(`MCP ${job.version} has no JSON-RPC batches; only ${BATCH_VERSION} allowed them.`);
    if (problems.length > 0) status = "invalid";
    const more = job.unchecked > 0 ? ` (${job.unchecked} more not checked)` : "";
    return { status, kind: `batch of ${verdicts.length + job.unchecked}${more}`, problems: problems.slice(0, MAX_PROBLEMS) };
  }
  const kind = verdicts[0]?.kindLabel;
  const judgedAs = verdicts[0] ? judgedText(verdicts[0]) : "";
  return { status, ...(kind !== undefined ? { kind } : {}), ...(judgedAs ? { judged: judgedAs } : {}), problems: problems.slice(0, MAX_PROBLEMS) };
}
