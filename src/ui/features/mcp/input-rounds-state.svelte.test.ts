import { describe, expect, it } from "vitest";
import type { InputAnswers, InputRound, McpConnection } from "../../../core/mcp/index.ts";
import { InputRoundsState } from "./input-rounds-state.svelte.ts";
import { answerText, askedText, exchangeFrames } from "./round-frames.ts";

const round = (index: number, requestState?: string): InputRound => ({
  index,
  requestId: index * 10,
  result: { resultType: "input_required" },
  requests: [{ key: "confirm", method: "elicitation/create", kind: "elicitation", params: { message: "Sure?" } }],
  requestState,
});
const answers: InputAnswers = { responses: { confirm: { action: "accept", content: { ok: true } } }, requestState: "s-1", notes: [] };
/** The one thing the rounds state asks of a connection: answers from its handlers. */
const connection = { answerInput: async () => answers } as unknown as McpConnection;

describe("InputRoundsState", () => {
  it("follows a call's rounds: the first request, each round, its answers and the retry's id", async () => {
    const state = new InputRoundsState();
    const options = state.options(connection);
    options.onRequest!(10, {});
    options.onInputRound!(round(1, "s-1"));
    expect(state.rounds[0]).toMatchObject({ index: 1, requestId: 10, answers: null, retryId: undefined });
    expect(await options.answerInput!(round(1, "s-1"))).toBe(answers);
    options.onRequest!(11, {});
    expect(state.firstId).toBe(10);
    expect(state.rounds[0]).toMatchObject({ answers, retryId: 11 });
    state.clear();
    expect([state.rounds, state.firstId]).toEqual([[], null]);
  });

  it("holds each retry for review, and sends the requestState as edited (or none), or stops", async () => {
    const state = new InputRoundsState();
    state.review = true;
    const options = state.options(connection);
    options.onInputRound!(round(1, "s-1"));
    const first = options.answerInput!(round(1, "s-1"));
    await expect.poll(() => state.pending).not.toBeNull();
    expect(state.stateText).toBe("s-1");
    state.stateText = "tampered";
    state.sendRetry();
    expect(await first).toEqual({ ...answers, requestState: "tampered" });
    expect(state.rounds[0]?.editedState).toBe("tampered");
    expect(state.pending).toBeNull();

    options.onInputRound!(round(2));
    const second = options.answerInput!(round(2));
    await expect.poll(() => state.pending).not.toBeNull();
    state.stop();
    expect(await second).toBeNull();
  });
});

describe("round words and frames", () => {
  it("says what each request asks and how it was answered", () => {
    expect(askedText(round(1).requests[0]!)).toBe("Sure?");
    expect(askedText({ key: "a", method: "sampling/createMessage", kind: "sampling", params: { messages: [{ role: "user", content: { type: "text", text: "Why?" } }] } })).toBe('a model answer to "Why?"');
    expect(askedText({ key: "r", method: "roots/list", kind: "roots", params: {} })).toBe("the client's roots");
    expect(askedText({ key: "x", method: "x/y", kind: "unknown", params: {} })).toBe("x/y (not one the console answers)");
    expect(answerText(null, "confirm")).toBe("answering…");
    expect(answerText(answers, "confirm")).toBe('accepted {"ok":true}');
    expect(answerText({ ...answers, responses: { confirm: { action: "decline" } } }, "confirm")).toBe("declined");
    expect(answerText(answers, "other")).toBe("left unanswered");
    expect(answerText({ ...answers, responses: { r: { roots: [{ uri: "file:///" }] } } }, "r")).toBe("1 root");
  });

  it("finds the request and answer of one exchange of one target in the log", () => {
    const enc = new TextEncoder();
    const entry = (seq: number, direction: "in" | "out", target: string, id: string, text: string) =>
      ({ seq, direction, target, correlationId: id, bytes: enc.encode(text) }) as never;
    const entries = [entry(1, "out", "t", "4", '{"id":4}'), entry(2, "out", "other", "4", "x"), entry(3, "in", "t", "4", '{"id":4,"result":{}}'), entry(4, "out", "t", "5", "not json")];
    expect(exchangeFrames(entries, "t", 4)).toEqual({ request: '{\n  "id": 4\n}', answer: '{\n  "id": 4,\n  "result": {}\n}' });
    expect(exchangeFrames(entries, "t", 5)).toEqual({ request: "not json" });
    expect(exchangeFrames(entries, "t", 6)).toEqual({});
  });
});
