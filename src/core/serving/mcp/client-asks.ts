/**
 * Asking the client something mid-call, in the way its era allows: pushed requests on the
 * legacy era, an `input_required` answer on the modern era (the client retries with its
 * answers), the task's `input_required` status when the call runs as a task.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type ElicitRequestFormParams,
  type ElicitResult,
  type InputRequest,
  type Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { isJsonObject } from "../../json/index.ts";
import type { SchemaCompiler } from "../../schema/compiler.ts";
import type { SessionState } from "./session-state.ts";

export type Ask = (requests: Readonly<Record<string, InputRequest>>) => Promise<Record<string, unknown>>;

/** Thrown by a modern-era ask whose answers have not come yet: the call answers `input_required`. */
export class InputNeeded extends Error {
  readonly requests: Readonly<Record<string, InputRequest>>;
  constructor(requests: Readonly<Record<string, InputRequest>>) {
    super("the client has not answered yet");
    this.requests = requests;
  }
}

/** The capabilities the client declared: at initialize (legacy) or on this very request (modern). */
export function clientCapabilities(server: Server, session: SessionState, call: ServerContext): ClientCapabilities | undefined {
  if (session.era === "legacy") return server.getClientCapabilities();
  const declared = (call.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY];
  return isJsonObject(declared) ? (declared as ClientCapabilities) : undefined;
}

/**
 * The client declared form elicitation in a version that has it, so it can be asked. An empty
 * elicitation capability means form mode (2025-06-18 had no modes; later versions keep that meaning).
 */
export function canElicitForm(server: Server, session: SessionState, call: ServerContext): boolean {
  const elicitation = clientCapabilities(server, session, call)?.elicitation;
  if (!elicitation || !session.speaks("2025-06-18")) return false;
  return elicitation.form !== undefined || elicitation.url === undefined;
}

/** The modern era: the answers the retry carries, or InputNeeded naming what is still missing. */
export function modernAsk(call: ServerContext): Ask {
  return async (requests) => {
    const got = call.mcpReq.inputResponses ?? {};
    const missing = Object.entries(requests).filter(([key]) => !isJsonObject(got[key]));
    if (missing.length > 0) throw new InputNeeded(Object.fromEntries(missing));
    return Object.fromEntries(Object.keys(requests).map((key) => [key, got[key]]));
  };
}

export interface PushOptions {
  readonly compiler: SchemaCompiler;
  readonly signal: AbortSignal;
  /** Per question; absent, the SDK's default. */
  readonly timeoutMs?: number;
}

/**
 * Asks a form question on the call's own stream, and checks an accepted answer against the form
 * (the SDK's own check wants `elicitation.form` declared, which 2025-06-18 clients never send).
 */
export async function pushElicitation(server: Server, call: ServerContext, params: ElicitRequestFormParams, options: PushOptions): Promise<ElicitResult> {
  const answer = await server.request(
    { method: "elicitation/create", params: { ...params, mode: "form" } },
    { relatedRequestId: call.mcpReq.id, signal: options.signal, ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}) },
  );
  if (answer.action === "accept" && answer.content !== undefined) {
    const problems = options.compiler.checkDynamic(params.requestedSchema, answer.content, "", "2020-12").filter((issue) => issue.severity === "error");
    if (problems.length > 0) {
      const lines = problems.slice(0, 5).map((p) => `${p.pointer === "" ? "(the answer)" : p.pointer}: ${p.message}`);
      throw new Error(`the answer does not match requested schema: ${lines.join("; ")}`);
    }
  }
  return answer;
}

/** The legacy era: each question pushed to the client in turn, on the call's own stream. */
export function legacyAsk(server: Server, call: ServerContext, options: PushOptions): Ask {
  return async (requests) => {
    const answers: Record<string, unknown> = {};
    const related = { relatedRequestId: call.mcpReq.id, signal: options.signal, ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}) };
    for (const [key, asked] of Object.entries(requests)) {
      const request = asked as { readonly method: string; readonly params?: unknown };
      const params = (request.params ?? {}) as Record<string, unknown>;
      if (request.method === "elicitation/create") answers[key] = await pushElicitation(server, call, params as ElicitRequestFormParams, options);
      else if (request.method === "sampling/createMessage") answers[key] = await server.createMessage(params as Parameters<Server["createMessage"]>[0], related);
      else if (request.method === "roots/list") answers[key] = await server.listRoots(params, related);
      else throw new Error(`cannot ask the client ${request.method}`);
    }
    return answers;
  };
}
