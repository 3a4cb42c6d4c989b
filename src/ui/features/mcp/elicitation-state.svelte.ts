import type { ClientHandlers } from "../../../core/mcp/index.ts";
import { buildContent, type ElicitForm, elicitForm, type ElicitValues, initialValues } from "./elicitation-form.ts";

type Handler = NonNullable<ClientHandlers["elicitation"]>;
export type ElicitParams = Parameters<Handler>[0];
export type ElicitAnswer = Awaited<ReturnType<Handler>>;

/** A request the server is waiting on, as the dialog shows it. */
export interface PendingElicitation {
  readonly message: string;
  readonly requestedSchema: unknown;
  readonly form: ElicitForm;
}

interface Waiting {
  readonly pending: PendingElicitation;
  readonly resolve: (answer: ElicitAnswer) => void;
}

/** Server requests for user input: one dialog at a time, later ones wait their turn. */
export class ElicitationState {
  pending = $state.raw<PendingElicitation | null>(null);
  values = $state<ElicitValues>({});
  errors = $state.raw<Readonly<Record<string, string>>>({});
  #queue: Waiting[] = [];

  /** The elicitation handler: resolves when the user answers. URL mode is not offered, so it is declined. */
  readonly handle = (params: ElicitParams): Promise<ElicitAnswer> => {
    if (params.mode === "url") return Promise.resolve({ action: "decline" });
    const pending = { message: params.message, requestedSchema: params.requestedSchema, form: elicitForm(params.requestedSchema) };
    return new Promise((resolve) => {
      this.#queue.push({ pending, resolve });
      if (this.#queue.length === 1) this.#show();
    });
  };

  /** Sends the form's content, unless a field is invalid (then its error shows and nothing is sent). */
  accept(): void {
    const fields = this.pending?.form.fields;
    if (!fields) return;
    const built = buildContent(fields, $state.snapshot(this.values));
    if (!built.ok) {
      this.errors = built.errors;
      return;
    }
    this.#answer({ action: "accept", content: built.content });
  }

  decline(): void {
    this.#answer({ action: "decline" });
  }

  cancel(): void {
    this.#answer({ action: "cancel" });
  }

  /** Cancels every waiting request, for when the connection goes away. */
  clear(): void {
    const queue = this.#queue;
    this.#queue = [];
    this.pending = null;
    for (const w of queue) w.resolve({ action: "cancel" });
  }

  #answer(answer: ElicitAnswer): void {
    const current = this.#queue.shift();
    if (!current) return;
    current.resolve(answer);
    this.#show();
  }

  #show(): void {
    const next = this.#queue[0]?.pending ?? null;
    this.pending = next;
    this.values = next ? initialValues(next.form.fields) : {};
    this.errors = {};
  }
}
