import { RequestRefusal, SAMPLING_DECLINED_CODE, samplingResultProblem } from "../../../core/mcp/client-handlers.ts";
import type { ClientHandlers } from "../../../core/mcp/index.ts";
import { parseJsonText } from "../../../core/json/index.ts";
import { PendingQueue } from "./pending-queue.svelte.ts";

type Handler = NonNullable<ClientHandlers["sampling"]>;
export type SamplingParams = Parameters<Handler>[0];
export type SamplingAnswer = Awaited<ReturnType<Handler>>;

export const STUB_MODEL = "patchbay-stub";
export const DECLINE_MESSAGE = "The user declined the sampling request.";
const CLOSED_MESSAGE = "The client disconnected before answering the sampling request.";
const QUOTE_CHARS = 200;

/** A message's content as one line of text: text blocks as they are, anything else as its JSON. */
export function contentText(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .map((b) => (b !== null && typeof b === "object" && (b as { type?: unknown }).type === "text" ? String((b as { text?: unknown }).text) : JSON.stringify(b)))
    .join("\n");
}

/** A CreateMessageResult that answers the request without a model: it says so and quotes the last user message. */
export function stubResult(params: SamplingParams): SamplingAnswer {
  const lastUser = params.messages.findLast((m) => m.role === "user");
  const asked = lastUser ? contentText(lastUser.content) : "";
  const quote = asked.length > QUOTE_CHARS ? `${asked.slice(0, QUOTE_CHARS)}…` : asked;
  const text = quote === "" ? "This is a stub answer from Patchbay; no model was called." : `This is a stub answer from Patchbay; no model was called. You asked: "${quote}"`;
  return { role: "assistant", content: { type: "text", text }, model: STUB_MODEL, stopReason: "endTurn" };
}

/**
 * Server requests for an LLM completion, answered by the user with an editable stub: one dialog
 * at a time, later ones wait. Declining answers JSON-RPC error -1, as MCP prescribes.
 */
export class SamplingState {
  /** The answer being edited: CreateMessageResult JSON. */
  responseText = $state("");
  error = $state<string | null>(null);
  readonly #queue = new PendingQueue<SamplingParams, SamplingAnswer>((next) => {
    this.responseText = next ? JSON.stringify(stubResult(next), null, 2) : "";
    this.error = null;
  });
  readonly #note: (text: string) => void;

  /** `note` hears what was answered, for the console. */
  constructor(note: (text: string) => void = () => {}) {
    this.#note = note;
  }

  /** The request shown, null when none waits. */
  get pending(): SamplingParams | null {
    return this.#queue.current;
  }

  /** How many more requests wait behind the one shown. */
  get waiting(): number {
    return this.#queue.waiting;
  }

  readonly handle = (params: SamplingParams): Promise<SamplingAnswer> => this.#queue.add(params);

  /** Sends the edited answer, unless it is not JSON or not a CreateMessageResult (then nothing is sent). */
  send(): void {
    const params = this.pending;
    if (!params) return;
    const parsed = parseJsonText(this.responseText);
    if (!parsed.ok) {
      this.error = `The answer is not JSON: ${parsed.message} (line ${parsed.line}, column ${parsed.column}).`;
      return;
    }
    const problem = samplingResultProblem(params, parsed.value);
    if (problem !== null) {
      this.error = problem;
      return;
    }
    const model = (parsed.value as { model: string }).model;
    this.#queue.answer(parsed.value as SamplingAnswer);
    this.#note(`Answered a sampling request (model "${model}").`);
  }

  decline(): void {
    if (!this.pending) return;
    this.#queue.refuse(new RequestRefusal(SAMPLING_DECLINED_CODE, DECLINE_MESSAGE));
    this.#note(`Declined a sampling request: answered JSON-RPC error ${SAMPLING_DECLINED_CODE} "${DECLINE_MESSAGE}"`);
  }

  /** Refuses every waiting request, for when the connection goes away (the server no longer listens). */
  clear(): void {
    this.#queue.clear({ error: new RequestRefusal(SAMPLING_DECLINED_CODE, CLOSED_MESSAGE) });
  }
}
