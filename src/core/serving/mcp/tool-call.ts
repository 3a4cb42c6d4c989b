import {
  type CallToolRequest,
  type CallToolResult,
  inputRequired,
  type LoggingLevel,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { isJsonObject } from "../../json/index.ts";
import { argumentProblemLines } from "../call-checks.ts";
import type { ToolDef } from "../toolkit/toolkit-types.ts";
import { type Ask, InputNeeded, legacyAsk, modernAsk } from "./client-asks.ts";
import { confirmToolkitCall } from "./confirm-call.ts";
import { failure, type FixtureScope, type FixtureTool, type TaskSupport, type ToolAnswer } from "./fixtures/fixture-scope.ts";
import type { McpServingContext } from "./serving-context.ts";
import type { SessionState } from "./session-state.ts";
import { startTask, type TaskBody } from "./task-run.ts";
import { legacyCreated, modernCreated, TASKS_EXTENSION } from "./task-wire.ts";
import { sessionFixtures, toolTaskSupport } from "./tool-listing.ts";
import { runToolkitTool } from "./toolkit-call.ts";
import { clientCapabilities } from "./client-asks.ts";

/** A tool error naming every way the arguments miss the tool's input schema, or undefined when they fit. */
export function argumentProblems(ctx: McpServingContext, name: string, schema: unknown, args: unknown): CallToolResult | undefined {
  const lines = argumentProblemLines(ctx.compiler, name, schema, args, (message) => ctx.logger.warn(message));
  return lines.length === 0 ? undefined : failure(`Not run: the arguments for ${name} do not match its input schema.\n${lines.join("\n")}`);
}

/** A served tool: a toolkit tool or a fixture, with whether it may run as a task. */
export type ServedTool = { readonly kind: "toolkit"; readonly tool: ToolDef } | { readonly kind: "fixture"; readonly fixture: FixtureTool };

export function findTool(ctx: McpServingContext, session: SessionState, name: string): ServedTool | undefined {
  const tool = ctx.tools.get(name);
  if (tool) return { kind: "toolkit", tool };
  const fixture = sessionFixtures(ctx, session).find((f) => f.tool.name === name);
  return fixture ? { kind: "fixture", fixture } : undefined;
}

const taskSupportOf = (served: ServedTool): TaskSupport | undefined => (served.kind === "toolkit" ? toolTaskSupport(served.tool) : served.fixture.task);

/**
 * Whether this call runs as a task. Legacy clients ask for one (`params.task`) where a tool allows
 * it; on the modern era the server decides, for clients that declared the tasks extension on the
 * request. A tool that must run as a task refuses a call that cannot be one.
 */
function runsAsTask(server: Server, session: SessionState, request: CallToolRequest, call: ServerContext, name: string, support: TaskSupport | undefined): boolean {
  if (session.era === "legacy") {
    const asked = isJsonObject((request.params as { task?: unknown }).task);
    if (asked && support === undefined) throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `${name} cannot run as a task; call it without params.task.`);
    if (!asked && support === "required") throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `${name} runs only as a task; call it with params.task (e.g. "task": {}).`);
    return asked;
  }
  const declared = clientCapabilities(server, session, call)?.extensions?.[TASKS_EXTENSION] !== undefined;
  if (!declared && support === "required") {
    throw new MissingRequiredClientCapabilityError(
      { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
      `${name} runs only as a task: declare the ${TASKS_EXTENSION} extension in the request's clientCapabilities.`,
    );
  }
  return declared && support !== undefined;
}

const quietly = (ctx: McpServingContext, sending: Promise<void>) => sending.catch((error: unknown) => ctx.logger.debug("a notification was not sent", { error: (error as Error).message }));

/** Progress for the request, sent only when it asked for progress (a progressToken); a failed send is logged, never thrown. */
function progressOf(ctx: McpServingContext, call: ServerContext): FixtureScope["progress"] {
  const token = call.mcpReq._meta?.progressToken;
  return (progress: number, total?: number, message?: string) =>
    token === undefined
      ? Promise.resolve()
      : quietly(
          ctx,
          call.mcpReq.notify({
            method: "notifications/progress",
            params: { progressToken: token, progress, ...(total !== undefined ? { total } : {}), ...(message !== undefined ? { message } : {}) },
          }),
        );
}

function callScope(ctx: McpServingContext, server: Server, session: SessionState, call: ServerContext): FixtureScope {
  const ask: Ask = session.era === "legacy" ? legacyAsk(server, call, { compiler: ctx.compiler, signal: call.mcpReq.signal }) : modernAsk(call);
  return {
    server,
    call,
    scheduler: ctx.scheduler,
    session,
    compiler: ctx.compiler,
    requestState: ctx.requestState,
    signal: call.mcpReq.signal,
    log: (level: LoggingLevel, data: string) => quietly(ctx, call.mcpReq.log(level, data, ctx.serverInfo.name)),
    progress: progressOf(ctx, call),
    ask,
    ...(session.era === "modern" ? { announce: (kind: "tools" | "prompts") => ctx.changes.emit(kind) } : {}),
  };
}

async function runServed(ctx: McpServingContext, served: ServedTool, args: Readonly<Record<string, unknown>>, scope: FixtureScope): Promise<ToolAnswer> {
  if (served.kind === "toolkit") return runToolkitTool(ctx, served.tool, args, scope);
  return served.fixture.run(args, scope);
}

/** tools/call: unknown tools, bad arguments and failures all come back as `isError` results. */
export async function callTool(ctx: McpServingContext, server: Server, session: SessionState, request: CallToolRequest, call: ServerContext): Promise<ToolAnswer | Record<string, unknown>> {
  const { name } = request.params;
  const args = request.params.arguments ?? {};
  const served = findTool(ctx, session, name);
  if (!served && ctx.bridge?.find(name)) {
    // A bridged tool's arguments are the serving agent's to check, as fisk-ai leaves them to it.
    if (!isJsonObject(args)) return failure(`Not run: the arguments for ${name} must be a JSON object.`);
    if (session.era === "legacy" && isJsonObject((request.params as { task?: unknown }).task)) throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `${name} cannot run as a task; call it without params.task.`);
    const progress = progressOf(ctx, call);
    return (await ctx.bridge.call(name, args, call.mcpReq.signal, (value, total, message) => void progress(value, total, message))) as CallToolResult;
  }
  if (!served) return failure(`Unknown tool "${name}": this server has no tool by that name. Call tools/list to see the tools it offers.`);
  if (!isJsonObject(args)) return failure(`Not run: the arguments for ${name} must be a JSON object.`);
  const problems = argumentProblems(ctx, name, served.kind === "toolkit" ? served.tool.inputSchema : served.fixture.tool.inputSchema, args);
  if (problems) return problems;
  const asTask = runsAsTask(server, session, request, call, name, taskSupportOf(served));
  const scope = callScope(ctx, server, session, call);
  try {
    const early = served.kind === "toolkit" ? await confirmToolkitCall(ctx, served.tool, args, scope) : await served.fixture.prepare?.(args, scope);
    if (early) return early;
    if (!asTask) return await runServed(ctx, served, args, scope);
    const body: TaskBody = (task) => runServed(ctx, served, args, { ...scope, ...task });
    const task = startTask(ctx, session.owner, name, body);
    if (!task) return failure(`Not run: too many tasks are running on this server; try again once some have finished.`);
    return session.era === "legacy" ? legacyCreated(task, ctx.tasks) : modernCreated(task, ctx.tasks);
  } catch (error) {
    if (error instanceof InputNeeded) return inputRequired({ inputRequests: error.requests });
    if (error instanceof ProtocolError) throw error;
    return failure(`${name} failed: ${(error as Error).message}`);
  }
}
