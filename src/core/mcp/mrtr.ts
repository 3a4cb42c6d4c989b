/**
 * Multi-round-trip requests (2026-07-28): a `tools/call`, `prompts/get` or `resources/read`
 * answered with `resultType: "input_required"` asks the client for input (elicitation, sampling,
 * roots) and is sent again with the answers and the server's opaque `requestState`.
 */
import { isJsonObject } from "../json/index.ts";
import { RequestRefusal } from "./client-handlers.ts";
import type { ClientCapabilityChoice, ClientHandlers } from "./connection-types.ts";

export type InputKind = "elicitation" | "sampling" | "roots" | "unknown";

/** One request the server embedded in an input_required result. */
export interface InputRequest {
  readonly key: string;
  readonly method: string;
  readonly kind: InputKind;
  readonly params: Record<string, unknown>;
}

/** One input_required answer and what it asked for. */
export interface InputRound {
  /** 1 for the first answer that wanted input. */
  readonly index: number;
  /** The JSON-RPC id of the request this round answered. */
  readonly requestId: number;
  readonly result: Record<string, unknown>;
  readonly requests: readonly InputRequest[];
  readonly requestState: string | undefined;
}

/** What goes back with the retry: the answers by key, the request state to echo, and what could not be answered. */
export interface InputAnswers {
  readonly responses: Readonly<Record<string, unknown>>;
  readonly requestState: string | undefined;
  readonly notes: readonly string[];
}

const KINDS: Readonly<Record<string, InputKind>> = { "elicitation/create": "elicitation", "sampling/createMessage": "sampling", "roots/list": "roots" };

export function isInputRequired(result: unknown): result is Record<string, unknown> {
  return isJsonObject(result) && result.resultType === "input_required";
}

/** The embedded requests of an input_required result, in the order the server listed them. */
export function inputRequestsOf(result: Record<string, unknown>): InputRequest[] {
  const requests = isJsonObject(result.inputRequests) ? result.inputRequests : {};
  return Object.entries(requests).map(([key, value]) => {
    const method = isJsonObject(value) && typeof value.method === "string" ? value.method : "";
    const params = isJsonObject(value) && isJsonObject(value.params) ? value.params : {};
    return { key, method, kind: KINDS[method] ?? "unknown", params };
  });
}

/** A round from an input_required result; the problem when it carries neither requests nor state. */
export function roundOf(index: number, requestId: number, result: Record<string, unknown>): InputRound | { readonly problem: string } {
  const requests = inputRequestsOf(result);
  const state = result.requestState;
  if (state !== undefined && typeof state !== "string") return { problem: `the input_required result's requestState is ${typeof state}, not a string` };
  if (requests.length === 0 && state === undefined) return { problem: "the input_required result carries neither inputRequests nor requestState" };
  return { index, requestId, result, requests, requestState: state };
}

/**
 * Answers every request of a round through the client's handlers, as a legacy server's own
 * requests would be answered: elicitation by the page's form, sampling by its stub or profile,
 * roots from its list. A request the client has no answer for is left out and named in `notes`.
 */
export async function answerWithHandlers(round: InputRound, handlers: ClientHandlers, declared: ClientCapabilityChoice): Promise<InputAnswers> {
  const responses: Record<string, unknown> = {};
  const notes: string[] = [];
  for (const request of round.requests) {
    const answer = await answerOne(request, handlers, declared).catch((error: unknown) => ({ note: refusalNote(request, error) }));
    if ("note" in answer) notes.push(answer.note);
    else responses[request.key] = answer.value;
  }
  return { responses, requestState: round.requestState, notes };
}

async function answerOne(request: InputRequest, handlers: ClientHandlers, declared: ClientCapabilityChoice): Promise<{ value: unknown } | { note: string }> {
  const missing = (what: string) => ({ note: `${request.key} (${request.method}) was left unanswered: ${what}` });
  switch (request.kind) {
    case "elicitation":
      if (!declared.elicitation || !handlers.elicitation) return missing("the client does not offer elicitation");
      return { value: await handlers.elicitation(request.params as never) };
    case "sampling":
      if (!declared.sampling || !handlers.sampling) return missing("the client does not offer sampling");
      return { value: await handlers.sampling(request.params as never) };
    case "roots":
      if (!declared.roots) return missing("the client does not offer roots");
      return { value: { roots: handlers.roots ? await handlers.roots() : [] } };
    default:
      return missing(`the client knows no input request ${JSON.stringify(request.method)}`);
  }
}

function refusalNote(request: InputRequest, error: unknown): string {
  const why = error instanceof RequestRefusal ? `declined (${error.message})` : `its answer failed: ${(error as Error).message}`;
  return `${request.key} (${request.method}) was left unanswered: ${why}`;
}

/** The params of the retry: the original ones with the answers and the echoed request state. */
export function retryParams(original: Readonly<Record<string, unknown>>, answers: InputAnswers): Record<string, unknown> {
  const { inputResponses: _r, requestState: _s, ...rest } = original;
  return {
    ...rest,
    ...(Object.keys(answers.responses).length > 0 ? { inputResponses: answers.responses } : {}),
    ...(answers.requestState !== undefined ? { requestState: answers.requestState } : {}),
  };
}
