/**
 * `patchbay call a2a <card-or-base-url> <text>`: one message to an A2A agent through the same
 * core client as the workbench, no browser. Prints the agent's answer (with --stream, each event
 * as it comes; with --json, the raw JSON frames) and exits 0 on a completed task or a direct
 * message, 1 with the reason otherwise, 2 on a usage error.
 */
import { randomUUID } from "node:crypto";
import { DIALECTS, partsText, sendOneMessage, type AnswerFrame, type Binding, type Dialect, type TaskRecord } from "../../src/core/a2a/index.ts";

import { addHeader, CallUsageError, needs, parseTimeout, tokenFromEnv } from "./call-options.ts";

export { CallUsageError };

export interface CallA2aArgs {
  readonly card: string;
  readonly text: string;
  readonly dialect?: Dialect;
  readonly binding?: Binding;
  readonly stream: boolean;
  readonly json: boolean;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** Leave a task the call gave up on running on the agent. */
  readonly keepRunning: boolean;
  readonly versionHeader?: "send" | "omit";
}

export interface CallDeps {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly signal?: AbortSignal;
  readonly fetch?: typeof fetch;
}


export function parseCallA2aArgs(args: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): CallA2aArgs {
  const positional: string[] = [];
  const headers: Record<string, string> = {};
  let dialect: Dialect | undefined;
  let binding: Binding | undefined;
  let stream = false;
  let json = false;
  let timeoutMs = 120_000;
  let keepRunning = false;
  let versionHeader: "send" | "omit" | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = () => args[++i];
    if (arg === "--stream") stream = true;
    else if (arg === "--json") json = true;
    else if (arg === "--a2a-version") {
      const v = value();
      if (v === undefined) throw needs(arg, "1.0");
      const d = v === "1" ? "1.0" : v;
      if (!(DIALECTS as readonly string[]).includes(d)) throw new CallUsageError(`--a2a-version must be one of ${DIALECTS.join(", ")}, got ${JSON.stringify(v)}`);
      dialect = d as Dialect;
    } else if (arg === "--binding") {
      const v = value();
      if (v !== "jsonrpc" && v !== "rest") throw new CallUsageError(`--binding must be jsonrpc or rest${v === undefined ? "" : `, got ${JSON.stringify(v)}`}`);
      binding = v;
    } else if (arg === "--header" || arg === "-H") addHeader(headers, arg, value());
    else if (arg === "--token-env") headers.Authorization = `Bearer ${tokenFromEnv(value(), env)}`;
    else if (arg === "--bearer") {
      const v = value();
      if (v === undefined) throw needs(arg, "$TOKEN");
      headers.Authorization = `Bearer ${v}`;
    } else if (arg === "--timeout") timeoutMs = parseTimeout(value());
    else if (arg === "--no-cancel") keepRunning = true;
    else if (arg === "--send-version-header") versionHeader = "send";
    else if (arg === "--no-version-header") versionHeader = "omit";
    else if (arg.startsWith("-") && arg !== "-") throw new CallUsageError(`unknown option '${arg}'`);
    else positional.push(arg);
  }
  if (positional.length !== 2) throw new CallUsageError(`give the agent and the text: call a2a <card-or-base-url> <text> (got ${positional.length} argument${positional.length === 1 ? "" : "s"})`);
  const [card, text] = positional as [string, string];
  if (!/^https?:\/\//i.test(card)) throw new CallUsageError(`${JSON.stringify(card)} is not an http(s) URL of an agent or its card`);
  return { card, text, ...(dialect ? { dialect } : {}), ...(binding ? { binding } : {}), stream, json, headers, timeoutMs, keepRunning, ...(versionHeader ? { versionHeader } : {}) };
}

function taskLines(task: TaskRecord): string {
  const lines = [`task ${task.taskId}${task.contextId ? ` (context ${task.contextId})` : ""}: ${task.state ?? "no state"}`];
  for (const a of task.artifacts) lines.push(`artifact ${a.name ?? a.artifactId}${a.complete ? "" : " (incomplete)"}: ${partsText(a.parts)}`);
  return `${lines.join("\n")}\n`;
}

function eventLine(frame: AnswerFrame): string {
  const e = frame.event;
  const at = `[${Math.round(frame.at)} ms]`;
  if (!e) return `${at} ${frame.problem ?? "unreadable event"}\n`;
  if (e.kind === "task") return `${at} task ${e.taskId} ${e.state?.raw ?? ""}\n`;
  if (e.kind === "status") return `${at} status ${e.state?.raw ?? "?"}${e.statusText ? `: ${e.statusText}` : ""}${e.final ? " (final)" : ""}\n`;
  if (e.kind === "artifact") return `${at} artifact ${e.chunk.name ?? e.chunk.artifactId}${e.chunk.append ? " +" : ""}: ${partsText(e.chunk.parts)}${e.chunk.lastChunk ? " (last chunk)" : ""}\n`;
  if (e.kind === "message") return `${at} message: ${e.text}\n`;
  if (e.kind === "error") return `${at} error ${e.error.code} ${e.error.name}: ${e.error.message}\n`;
  return `${at} ${e.kind}\n`;
}

export async function runCallA2a(args: CallA2aArgs, deps: CallDeps): Promise<number> {
  const start = performance.now();
  const result = await sendOneMessage(
    { fetch: (deps.fetch ?? fetch) as never, now: () => performance.now() },
    {
      card: args.card,
      text: args.text,
      ...(args.dialect ? { dialect: args.dialect } : {}),
      ...(args.binding ? { binding: args.binding } : {}),
      stream: args.stream,
      headers: args.headers,
      ...(args.versionHeader ? { versionHeader: args.versionHeader } : {}),
      deadlineMs: args.timeoutMs,
      cancelOnGiveUp: !args.keepRunning,
      ...(deps.signal ? { signal: deps.signal } : {}),
      newId: randomUUID,
      onTarget: (card, target) => deps.stderr(`agent ${String(card.card.name ?? "?")}: card ${card.url}, A2A ${target.dialect} over ${target.binding} at ${target.url} (${card.dialect.evidence.join("; ")})\n`),
      onFrame: (frame) => {
        if (args.json) deps.stdout(`${frame.text}\n`);
        else if (args.stream) deps.stdout(eventLine(frame));
      },
    },
  );
  const { outcome } = result;
  if (!args.json && !args.stream) {
    if (outcome.ok && outcome.kind === "message") deps.stdout(`${outcome.text}\n`);
    else if (outcome.ok) deps.stdout(taskLines(outcome.task));
    else if (outcome.task) deps.stdout(taskLines(outcome.task));
  }
  if (outcome.ok) return 0;
  deps.stderr(`call a2a: ${outcome.reason} (after ${Math.round(performance.now() - start)} ms)\n`);
  return 1;
}
