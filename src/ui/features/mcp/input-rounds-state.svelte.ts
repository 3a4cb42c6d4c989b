import type { CallOptions, InputAnswers, InputRequest, InputRound, McpConnection } from "../../../core/mcp/index.ts";

/** One round of a call's conversation as shown: what the server asked, what went back, and the retry. */
export interface RoundShown {
  readonly index: number;
  /** The request that was answered with input_required. */
  readonly requestId: number;
  readonly requests: readonly InputRequest[];
  readonly requestState: string | undefined;
  /** Null while the page is still answering. */
  readonly answers: InputAnswers | null;
  /** The retry's JSON-RPC id, once it went out. */
  readonly retryId: number | undefined;
  /** The requestState the retry carried, when the user changed it before sending. */
  readonly editedState?: string | undefined;
}

/** A retry waiting for the user: the answers gathered and the requestState, editable. */
export interface PendingRetry {
  readonly round: InputRound;
  readonly answers: InputAnswers;
}

/**
 * The input_required conversation of the call on show: each round as it happens, answered by the
 * page's dialogs and stubs. With `review` on, each retry waits until the user sends it, and the
 * requestState it echoes can be changed first (to see how the server treats a tampered one).
 */
export class InputRoundsState {
  rounds = $state.raw<readonly RoundShown[]>([]);
  /** The JSON-RPC id of the call's first request. */
  firstId = $state<number | null>(null);
  review = $state(false);
  pending = $state.raw<PendingRetry | null>(null);
  /** The requestState text of the pending retry. */
  stateText = $state("");
  #decide: ((answers: InputAnswers | null) => void) | undefined;

  clear(): void {
    this.stop();
    this.rounds = [];
    this.firstId = null;
  }

  /** The call options that feed this conversation; answers come from `connection`'s handlers. */
  options(connection: McpConnection): Pick<CallOptions, "onRequest" | "onInputRound" | "answerInput"> {
    return {
      onRequest: (id) => {
        if (this.firstId === null) this.firstId = id;
        else this.#update(this.rounds.length - 1, { retryId: id });
      },
      onInputRound: (round) => {
        this.rounds = [...this.rounds, { index: round.index, requestId: round.requestId, requests: round.requests, requestState: round.requestState, answers: null, retryId: undefined }];
      },
      answerInput: async (round) => {
        const answers = await connection.answerInput(round);
        this.#update(this.rounds.length - 1, { answers });
        if (!this.review) return answers;
        this.stateText = round.requestState ?? "";
        this.pending = { round, answers };
        return new Promise<InputAnswers | null>((resolve) => (this.#decide = resolve));
      },
    };
  }

  /** Sends the pending retry, with the requestState as now typed (empty: none). */
  sendRetry(): void {
    const pending = this.pending;
    if (!pending) return;
    const state = this.stateText === "" ? undefined : this.stateText;
    if (state !== pending.round.requestState) this.#update(this.rounds.length - 1, { editedState: state });
    this.#finish({ ...pending.answers, requestState: state });
  }

  /** Ends the call at this round: the server's last answer stays on show. */
  stop(): void {
    this.#finish(null);
  }

  #finish(answers: InputAnswers | null): void {
    const decide = this.#decide;
    this.#decide = undefined;
    this.pending = null;
    decide?.(answers);
  }

  #update(index: number, change: Partial<RoundShown>): void {
    const round = this.rounds[index];
    if (!round) return;
    const next = [...this.rounds];
    next[index] = { ...round, ...change };
    this.rounds = next;
  }
}
