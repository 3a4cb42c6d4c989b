import type { ApproveChoice, ElicitAnswerInput, ElicitRequest } from "../../../core/fisk/codec/index.ts";
import { questionKind } from "./question.ts";

/**
 * What the person has picked or typed for one open question, before sending. Held by the task,
 * not the form, so a half-written answer survives the panel being closed and reopened.
 */
export class QuestionDraft {
  readonly question: ElicitRequest;
  choice = $state<ApproveChoice>("once");
  confirmed = $state(true);
  index = $state(0);
  value = $state("");

  constructor(question: ElicitRequest) {
    this.question = question;
    this.value = question.default ?? "";
  }

  get kind(): ReturnType<typeof questionKind> {
    return questionKind(this.question);
  }

  /** The answer as it stands, for the question's kind. */
  answer(): ElicitAnswerInput {
    const kind = this.kind;
    if (kind === "approve") return { kind, choice: this.choice };
    if (kind === "confirm") return { kind, confirmed: this.confirmed };
    if (kind === "select") return { kind, index: this.index };
    return { kind: "input", value: this.value };
  }
}
