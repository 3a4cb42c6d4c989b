import { describe, expect, it } from "vitest";
import type { ElicitRequest } from "../../../core/fisk/codec/index.ts";
import { QuestionDraft } from "./question-draft.svelte.ts";

const ask = (kind: string, extra: Record<string, unknown> = {}) =>
  ({ protocol: `io.choria.fisk-ai.v1.elicit.request.${kind}`, question_id: "q1", ...extra }) as unknown as ElicitRequest;

describe("QuestionDraft", () => {
  it("answers in the question's kind from what was picked or typed", () => {
    const approve = new QuestionDraft(ask("approve"));
    expect(approve.answer()).toEqual({ kind: "approve", choice: "once" });
    approve.choice = "always";
    expect(approve.answer()).toEqual({ kind: "approve", choice: "always" });
    const confirm = new QuestionDraft(ask("confirm"));
    confirm.confirmed = false;
    expect(confirm.answer()).toEqual({ kind: "confirm", confirmed: false });
    const select = new QuestionDraft(ask("select", { options: ["a", "b"] }));
    select.index = 1;
    expect(select.answer()).toEqual({ kind: "select", index: 1 });
  });

  it("starts an input answer from the question's default", () => {
    const input = new QuestionDraft(ask("input", { default: "ORDERS" }));
    expect(input.answer()).toEqual({ kind: "input", value: "ORDERS" });
    input.value = "EVENTS";
    expect(input.answer()).toEqual({ kind: "input", value: "EVENTS" });
  });
});
