/**
 * The approval a confirm-gated toolkit tool needs before it runs, in each era. The legacy era
 * asks with an elicitation request on the call's stream; the modern era answers the call with
 * `input_required` (one form question, `approve`) and a signed `requestState` bound to the tool
 * and its arguments, and decides when the client retries with the answer. The operator mode
 * waits for the Patchbay console's user in both eras.
 */
import { type CallToolResult, type ElicitRequestFormParams, inputRequired, type Server, type ServerContext } from "@modelcontextprotocol/server";
import { isJsonObject } from "../../json/index.ts";
import { describeCall } from "../call-checks.ts";
import { APPROVE_SCHEMA, approvalMessage, confirmGate, type ElicitAnswer, type GateRequest } from "../confirm-gate.ts";
import { readBehaviour } from "../toolkit/behaviour-tags.ts";
import type { ToolDef } from "../toolkit/toolkit-types.ts";
import { canElicitForm, pushElicitation } from "./client-asks.ts";
import type { ToolAnswer } from "./fixtures/fixture-scope.ts";
import type { McpServingContext } from "./serving-context.ts";
import type { SessionState } from "./session-state.ts";

/** The key the approval is asked and answered under. */
export const APPROVE_KEY = "approve";

/** JSON with object keys in sorted order, so the same arguments always bind the same way. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isJsonObject(value)) return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

const bindingOf = (tool: ToolDef, args: unknown) => `approve\0${tool.name}\0${canonicalJson(args)}`;

function elicitParams(message: string): ElicitRequestFormParams {
  return { mode: "form", message, requestedSchema: APPROVE_SCHEMA as unknown as ElicitRequestFormParams["requestedSchema"] };
}

/** An answer as the client sent it, read as an elicitation result (or why it is not one). */
function readAnswer(answer: unknown): ElicitAnswer {
  if (!isJsonObject(answer) || typeof answer.action !== "string") throw new Error("the answer is not an elicitation result (an object with an action)");
  return isJsonObject(answer.content) ? { action: answer.action, content: answer.content } : { action: answer.action };
}

export interface ConfirmScope {
  readonly server: Server;
  readonly call: ServerContext;
  readonly session: SessionState;
  readonly signal: AbortSignal;
}

/** Undefined when the call may run (always, for a tool not tagged ai:confirm); otherwise the answer that ends it (a refusal, or `input_required`). */
export async function confirmToolkitCall(ctx: McpServingContext, tool: ToolDef, args: Readonly<Record<string, unknown>>, scope: ConfirmScope): Promise<ToolAnswer | undefined> {
  if (!readBehaviour(tool.tags).confirm) return undefined;
  const { server, call, session, signal } = scope;
  const what = describeCall(tool, args);
  const approvals = ctx.approvals;
  const base: Omit<GateRequest, "canElicit" | "elicit"> = {
    mode: ctx.confirmMode,
    serverName: ctx.serverInfo.name,
    toolName: tool.name,
    what,
    ...(approvals ? { askOperator: () => approvals.ask({ surface: "mcp", tool: tool.name, what, arguments: args, signal }) } : {}),
    warn: (message) => ctx.logger.warn(message),
  };
  const canElicit = canElicitForm(server, session, call);
  if (session.era === "legacy" || !canElicit || ctx.confirmMode === "never" || ctx.confirmMode === "operator") {
    const decision = await confirmGate({
      ...base,
      canElicit,
      elicit: async (message) => pushElicitation(server, call, elicitParams(message), { compiler: ctx.compiler, signal, timeoutMs: ctx.approvalTimeoutMs }),
    });
    return decision.run ? undefined : (decision.result as CallToolResult);
  }
  // Modern era, a client that can be asked: the question goes out as input_required, and the
  // retry is decided only with the state this server signed for this very call.
  const binding = bindingOf(tool, args);
  const state = call.mcpReq.requestState();
  if (state !== undefined) await ctx.requestState.verify(state, binding);
  const answer = state === undefined ? undefined : call.mcpReq.inputResponses?.[APPROVE_KEY];
  if (answer === undefined) {
    return inputRequired({
      inputRequests: { [APPROVE_KEY]: { method: "elicitation/create", params: elicitParams(approvalMessage(ctx.serverInfo.name, tool.name, what)) } },
      requestState: await ctx.requestState.mint({ purpose: "approve" }, binding),
    });
  }
  const decision = await confirmGate({ ...base, canElicit: true, elicit: async () => readAnswer(answer) });
  return decision.run ? undefined : (decision.result as CallToolResult);
}
