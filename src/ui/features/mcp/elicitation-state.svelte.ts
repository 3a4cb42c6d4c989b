import type { ClientHandlers } from "../../../core/mcp/index.ts";
import { atLeast, nearestVersion } from "../../../core/packs/mcp/versions.ts";
import { buildContent, type ElicitForm, elicitForm, type ElicitValues, initialValues } from "./elicitation-form.ts";
import { PendingQueue } from "./pending-queue.svelte.ts";

type Handler = NonNullable<ClientHandlers["elicitation"]>;
export type ElicitParams = Parameters<Handler>[0];
export type ElicitAnswer = Awaited<ReturnType<Handler>>;

/** A request the server is waiting on, as the dialog shows it. */
export interface PendingElicitation {
  readonly message: string;
  readonly requestedSchema: unknown;
  readonly form: ElicitForm;
}

/** Server requests for user input: one dialog at a time, later ones wait their turn. */
export class ElicitationState {
  values = $state<ElicitValues>({});
  errors = $state.raw<Readonly<Record<string, string>>>({});
  readonly #queue = new PendingQueue<PendingElicitation, ElicitAnswer>((next) => {
    this.values = next ? initialValues(next.form.fields) : {};
    this.errors = {};
  });
  readonly #version: () => string | undefined;

  /** `version` is the connection's negotiated version, which decides what an answer may hold. */
  constructor(version: () => string | undefined = () => undefined) {
    this.#version = version;
  }

  /** The request shown, null when none waits. */
  get pending(): PendingElicitation | null {
    return this.#queue.current;
  }

  /** The elicitation handler: resolves when the user answers. URL mode is not offered, so it is declined. */
  readonly handle = (params: ElicitParams): Promise<ElicitAnswer> => {
    if (params.mode === "url") return Promise.resolve({ action: "decline" });
    const version = this.#version();
    const multiSelect = version === undefined || atLeast(nearestVersion(version), "2025-11-25");
    return this.#queue.add({ message: params.message, requestedSchema: params.requestedSchema, form: elicitForm(params.requestedSchema, { multiSelect }) });
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
    this.#queue.answer({ action: "accept", content: built.content });
  }

  decline(): void {
    this.#queue.answer({ action: "decline" });
  }

  cancel(): void {
    this.#queue.answer({ action: "cancel" });
  }

  /** Cancels every waiting request, for when the connection goes away. */
  clear(): void {
    this.#queue.clear({ answer: { action: "cancel" } });
  }
}
