import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { CallToolRequest, CallToolResult, LoggingLevel } from "@modelcontextprotocol/sdk/types.js";
import { isJsonObject } from "../../json/index.ts";
import { argumentProblemLines } from "../call-checks.ts";
import { failure, type FixtureScope, type HandlerExtra } from "./fixtures/fixture-scope.ts";
import type { McpServingContext } from "./serving-context.ts";
import type { SessionState } from "./session-state.ts";
import { sessionFixtures } from "./tool-listing.ts";
import { runToolkitTool } from "./toolkit-call.ts";

/** A tool error naming every way the arguments miss the tool's input schema, or undefined when they fit. */
export function argumentProblems(ctx: McpServingContext, name: string, schema: unknown, args: unknown): CallToolResult | undefined {
  const lines = argumentProblemLines(ctx.compiler, name, schema, args, (message) => ctx.logger.warn(message));
  return lines.length === 0 ? undefined : failure(`Not run: the arguments for ${name} do not match its input schema.\n${lines.join("\n")}`);
}

function callScope(ctx: McpServingContext, server: Server, session: SessionState, extra: HandlerExtra): FixtureScope {
  const token = extra._meta?.progressToken;
  const quietly = (sending: Promise<void>) => sending.catch((error: unknown) => ctx.logger.debug("a notification was not sent", { error: (error as Error).message }));
  return {
    server,
    extra,
    scheduler: ctx.scheduler,
    session,
    log: (level: LoggingLevel, data: string) =>
      session.wantsLog(level) ? quietly(extra.sendNotification({ method: "notifications/message", params: { level, logger: ctx.serverInfo.name, data } })) : Promise.resolve(),
    progress: (progress: number, total?: number, message?: string) =>
      token === undefined
        ? Promise.resolve()
        : quietly(
            extra.sendNotification({
              method: "notifications/progress",
              params: { progressToken: token, progress, ...(total !== undefined ? { total } : {}), ...(message !== undefined ? { message } : {}) },
            }),
          ),
  };
}

/** tools/call: unknown tools, bad arguments and failures all come back as `isError` results. */
export async function callTool(ctx: McpServingContext, server: Server, session: SessionState, request: CallToolRequest, extra: HandlerExtra): Promise<CallToolResult> {
  const { name } = request.params;
  const args = request.params.arguments ?? {};
  const tool = ctx.tools.get(name);
  const fixture = tool ? undefined : sessionFixtures(ctx, session).find((f) => f.tool.name === name);
  if (!tool && !fixture) return failure(`Unknown tool "${name}": this server has no tool by that name. Call tools/list to see the tools it offers.`);
  if (!isJsonObject(args)) return failure(`Not run: the arguments for ${name} must be a JSON object.`);
  const problems = argumentProblems(ctx, name, tool ? tool.inputSchema : fixture!.tool.inputSchema, args);
  if (problems) return problems;
  const scope = callScope(ctx, server, session, extra);
  if (tool) return runToolkitTool(ctx, server, tool, args, scope);
  try {
    return await fixture!.run(args, scope);
  } catch (error) {
    return failure(`${name} failed: ${(error as Error).message}`);
  }
}
