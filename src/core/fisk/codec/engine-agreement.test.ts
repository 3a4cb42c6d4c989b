import { describe, expect, it } from "vitest";
import { manualClock } from "../../env/index.ts";
import { createValidationEngine } from "../../packs/index.ts";
import { answerRequest, cancelMessage, discoveryRequest, elicitReply, elicitWaiting, promptRequest, readRequest, resumeRequest, toolRequest } from "./builders.ts";
import { encodeFiskMessage } from "./encode.ts";
import { FISK_PROTOCOLS as P } from "./protocol-ids.ts";
import { stampReply, type StampContext } from "./stamp.ts";
import type { FiskMessage } from "./types-messages.ts";

/** What the codec builds and writes, the project's own fisk-ai schemas accept. */

function ctx(): StampContext {
  let n = 0;
  return { clock: manualClock(0, Date.UTC(2026, 7, 21, 9, 14, 5, 3)), random: (b) => b.fill(++n), sender: { name: "console-1" }, recipient: { name: "nats-worker" } };
}

const question = { request: "task-1", conversation: "conv-1", question_id: "q1" };
const built: [string, FiskMessage][] = [
  ["discovery.request", discoveryRequest(ctx())],
  ["tool.request", toolRequest("stream_info", { stream: "ORDERS" }, ctx())],
  ["request.prompt", promptRequest({ prompt: "hi", budget: { max_tokens: 100 }, stream: false, replay: 3, conversation_token: "tok" }, ctx())],
  ["request.answer", answerRequest({ conversation_token: "tok", answer: { tool_use_id: "toolu_1", kind: "select", answer: "value", value: "west" } }, ctx())],
  ["request.resume", resumeRequest({ conversation_token: "tok", force: true }, ctx())],
  ["request.read", readRequest({ conversation_token: "tok", replay: 200 }, ctx())],
  ["cancel", cancelMessage("task-1", ctx(), "stop")],
  ["elicit.reply.approve", elicitReply(question, { kind: "approve", choice: "no" }, ctx())],
  ["elicit.reply.confirm", elicitReply(question, { kind: "confirm", confirmed: false }, ctx())],
  ["elicit.reply.select", elicitReply(question, { kind: "select", index: 0 }, ctx())],
  ["elicit.reply.input", elicitReply(question, { kind: "input", value: "" }, ctx())],
  ["elicit.reply.no_operator", elicitReply(question, { kind: "no_operator" }, ctx())],
  ["elicit.waiting", elicitWaiting(question, ctx())],
  ["ack", { protocol: P.ack, ...stampReply({ request: "r", conversation: "c", sender: { name: "x" } }, { name: "w" }, ctx()), accepted: false } as FiskMessage],
];

describe("built messages against the validation engine", () => {
  const engine = createValidationEngine();

  it.each(built)("%s validates in both encodings", (kind, message) => {
    for (const text of [encodeFiskMessage(message), encodeFiskMessage(message, { go: true })]) {
      const verdict = engine.session().validateText(text);
      expect(verdict.issues.filter((i) => i.severity === "error")).toEqual([]);
      expect(verdict).toMatchObject({ status: "valid", family: "fisk-ai", kindId: kind });
    }
  });
});
