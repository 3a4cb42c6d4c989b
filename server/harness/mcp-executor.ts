/**
 * MCP steps through the console's own client, exactly as `patchbay call mcp` connects: a URL over
 * Streamable HTTP (HTTP+SSE when the server refuses it), or a command line started without a
 * shell. One session per target, opened on its first step; every frame lands in the session's
 * wire log, and a step's frames are the entries it added.
 */
import type { McpAction, McpTargetSpec, StepOutcome } from "../../src/core/harness/collection-types.ts";
import type { ExecutorContext, ResolvedStep, StepExecutor, StepObservation } from "../../src/core/harness/run-types.ts";
import { isJsonObject } from "../../src/core/json/index.ts";
import { createValidationEngine } from "../../src/core/packs/index.ts";
import type { ValidationEngine, ValidationSession } from "../../src/core/validation/engine.ts";
import { WireLog, type WireEntry } from "../../src/core/wire/index.ts";
import { systemClock } from "../../src/core/env/index.ts";
import type { McpTarget } from "../cli/call-mcp-args.ts";
import { connectMcp, type McpSession } from "../cli/call-mcp-connect.ts";
import { commandWords } from "../cli/command-words.ts";
import { callOutcome, ownEntries, requestErrorOutcome, responseEntry, resultOutcome, sseStream } from "./mcp-outcome.ts";
import { entryJson, learnFrom, stepFrames } from "./step-frames.ts";
import { settleWithin, stepLimit, type StepLimit } from "./step-limit.ts";
import { isObservation, TargetSessions } from "./target-sessions.ts";

export interface McpExecutorOptions {
  readonly engine?: ValidationEngine;
  readonly fetch?: typeof fetch;
}

interface OpenSession {
  readonly session: McpSession;
  readonly log: WireLog;
  readonly validator: ValidationSession;
  readonly transport: "stdio" | "streamable-http" | "sse";
}

/** Frames a session's log holds; a step reads only the ones it added. */
const LOG_CAPACITY = 20_000;
const CLOSE_WITHIN_MS = 3_000;
const clock = systemClock(performance, Date);

/** The spec as `call mcp`'s target; a spec that names no server, or a command that cannot be split, is the step's own error. */
export function mcpTarget(spec: McpTargetSpec): McpTarget {
  const hasUrl = spec.url !== undefined && spec.url !== "";
  const hasCommand = spec.command !== undefined && spec.command !== "";
  if (hasUrl === hasCommand) throw new Error(`an MCP target needs exactly one of "url" and "command"${hasUrl ? ", not both" : ""}`);
  if (hasUrl) {
    if (!/^https?:\/\//i.test(spec.url!)) throw new Error(`the MCP target's url ${JSON.stringify(spec.url)} is not an http(s) URL`);
    return { kind: "http", url: spec.url!, transport: "auto", headers: { ...spec.headers }, ...(spec.era ? { era: spec.era } : {}) };
  }
  let argv: string[];
  try {
    argv = commandWords(spec.command!);
  } catch (err) {
    throw new Error(`the MCP target's command ${JSON.stringify(spec.command)}: ${(err as Error).message}`);
  }
  if (argv.length === 0) throw new Error("the MCP target's command is empty");
  return { kind: "stdio", line: spec.command!, argv: argv as [string, ...string[]], ...(spec.era ? { era: spec.era } : {}) };
}

function channelOf(transport: OpenSession["transport"]): (entry: WireEntry) => string {
  return (entry) => {
    if (transport === "stdio") return entry.direction === "out" ? "stdin" : "stdout";
    if (entry.direction === "out") return transport === "sse" ? "POST (SSE message endpoint)" : `POST ${new URL(entry.target).pathname}`;
    const type = entry.headers?.["content-type"]?.[0] ?? "";
    return type.includes("text/event-stream") ? "SSE message" : `HTTP ${entry.status ?? "response"}`;
  };
}

const transportOf = (via: string): OpenSession["transport"] => (via.startsWith("stdio") ? "stdio" : via.startsWith("HTTP+SSE") ? "sse" : "streamable-http");

function failed(outcome: StepOutcome, limit: StepLimit, frames: StepObservation["frames"] = []): StepObservation {
  return { outcome, body: null, frames, latencyMs: performance.now() - limit.startedAt };
}

export class McpExecutor implements StepExecutor {
  readonly #engine: ValidationEngine;
  readonly #fetch: typeof fetch | undefined;
  readonly #sessions = new TargetSessions<OpenSession>((open) => settleWithin(open.session.connection.close(), CLOSE_WITHIN_MS));

  constructor(options: McpExecutorOptions = {}) {
    this.#engine = options.engine ?? createValidationEngine();
    this.#fetch = options.fetch;
  }

  async run(step: ResolvedStep, ctx: ExecutorContext): Promise<StepObservation> {
    const { target: spec, action } = step;
    if (spec.protocol !== "mcp" || action.protocol !== "mcp") throw new Error(`the MCP executor got a ${spec.protocol} target with a ${action.protocol} action`);
    const target = mcpTarget(spec);
    const limit = stepLimit(ctx, step.timeoutMs);
    try {
      const open = await this.#sessions.getOrOpen(step.targetName, spec, () => this.#connect(target, limit), isObservation);
      if (isObservation(open)) return open;
      const observation = await this.#send(open, action, step, limit);
      if (observation.outcome.kind === "transport-error") await this.#sessions.drop(step.targetName);
      return observation;
    } finally {
      limit.dispose();
    }
  }

  async #connect(target: McpTarget, limit: StepLimit): Promise<OpenSession | StepObservation> {
    const log = new WireLog(clock, LOG_CAPACITY);
    const attempt = await connectMcp(target, {
      compiler: this.#engine.compiler,
      timeoutMs: limit.remainingMs(),
      stderr: () => undefined,
      signal: limit.signal,
      wireLog: log,
      ...(this.#fetch ? { fetch: this.#fetch } : {}),
    });
    const validator = this.#engine.session();
    if (!attempt.ok) {
      // The frames of a failed connect are the step's: they say why.
      const frames = stepFrames(log.entries(), { startedAt: limit.startedAt, channel: channelOf(target.kind === "stdio" ? "stdio" : "streamable-http"), validator, family: "mcp" });
      const why = limit.why();
      const tail = attempt.serverStderr.length > 0 ? `; the server's last stderr lines: ${attempt.serverStderr.slice(-5).join(" | ")}` : "";
      const outcome: StepOutcome = why === "timeout" ? { kind: "timeout", message: `no MCP session within the step's time limit: ${attempt.message}` } : why === "cancelled" ? { kind: "cancelled", message: "cancelled while connecting" } : { kind: "transport-error", message: `${attempt.message}${tail}` };
      return failed(outcome, limit, frames);
    }
    learnFrom(log.entries(), validator);
    return { session: attempt.session, log, validator, transport: transportOf(attempt.session.via) };
  }

  async #send(open: OpenSession, action: McpAction, step: ResolvedStep, limit: StepLimit): Promise<StepObservation> {
    const { connection, info } = open.session;
    const mark = open.log.lastSeq;
    const sentAt = performance.now();
    const timeoutMs = limit.remainingMs();
    const options = { timeoutMs, signal: limit.signal };
    const params = action.params;
    let outcome: StepOutcome;
    if (action.method === "tools/call" && isToolCall(params)) {
      const { name, arguments: args, _meta: meta } = params;
      const result = await connection.callTool(name, args, { ...options, ...(meta ? { meta } : {}) });
      outcome = callOutcome(result, name, info.negotiatedVersion, limit.why(), step.timeoutMs);
    } else {
      try {
        outcome = resultOutcome(action.method, await connection.request(action.method, params === undefined ? undefined : { ...params }, options));
      } catch (error) {
        outcome = requestErrorOutcome(error, action.method, limit.why(), step.timeoutMs);
      }
    }
    const latencyMs = performance.now() - sentAt;
    const entries = ownEntries(open.log.entriesAfter(mark));
    const response = responseEntry(entries, action.method);
    const stream = sseStream(entries, response);
    return {
      outcome,
      body: response ? entryJson(response) : null,
      frames: stepFrames(entries, { startedAt: limit.startedAt, channel: channelOf(open.transport), validator: open.validator, family: "mcp" }),
      latencyMs,
      ...(stream ? { stream } : {}),
    };
  }

  async close(): Promise<void> {
    await this.#sessions.closeAll();
  }
}

type ToolCallParams = { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> };

/** Params callTool sends unchanged; anything else goes out as given through a plain request. */
function isToolCall(params: McpAction["params"]): params is ToolCallParams {
  if (!params || typeof params.name !== "string") return false;
  if (Object.keys(params).some((k) => k !== "name" && k !== "arguments" && k !== "_meta")) return false;
  return (params.arguments === undefined || isJsonObject(params.arguments)) && (params._meta === undefined || isJsonObject(params._meta));
}

export function mcpExecutor(options?: McpExecutorOptions): StepExecutor {
  return new McpExecutor(options);
}
