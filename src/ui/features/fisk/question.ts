import type { ElicitRequest, QuestionKind } from "../../../core/fisk/codec/index.ts";

/** The question's kind, from the last segment of its protocol id. */
export function questionKind(question: Pick<ElicitRequest, "protocol">): QuestionKind {
  const kind = question.protocol.slice(question.protocol.lastIndexOf(".") + 1);
  return kind === "approve" || kind === "confirm" || kind === "select" ? kind : "input";
}

/** The answer in words, for the list of answers kept to send later. */
export function answerWords(answer: { kind: string; choice?: string; confirmed?: boolean; index?: number; value?: string }, options: readonly string[] = []): string {
  switch (answer.kind) {
    case "approve":
      return `approve: ${answer.choice}`;
    case "confirm":
      return answer.confirmed ? "confirm: yes" : "confirm: no";
    case "select":
      return `select: ${options[answer.index ?? -1] ?? `option ${answer.index}`}`;
    case "input":
      return `input: ${JSON.stringify(answer.value ?? "")}`;
    default:
      return "no operator";
  }
}
