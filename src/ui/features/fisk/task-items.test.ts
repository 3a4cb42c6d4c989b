import { describe, expect, it } from "vitest";
import { taskItems, usageText } from "./task-items.ts";
import { entry } from "./test-fakes.ts";

describe("task stream items", () => {
  it("renders each kind and pairs a tool_call with its tool_result", () => {
    const items = taskItems([
      entry("ack", { sequence: 1, accepted: true, conversation_token: "tok-1", max_tokens: 4096 }, "ack"),
      entry("event.thinking", { sequence: 2, block: { text: "hmm" } }, "event"),
      entry("event.tool_call", { sequence: 3, block: { id: "t1", name: "stream_ls", input: { json: true } } }, "event"),
      entry("event.status", { sequence: 4, block: { iteration: 1, usage: { input_tokens: 6120, output_tokens: 88 } } }, "event"),
      entry("event.tool_result", { sequence: 5, block: { call_id: "t1", output: "[]", is_error: true } }, "event"),
      entry("event.text", { sequence: 6, block: { text: "done", final: true } }, "event"),
      entry("event.warning", { sequence: 7, block: { kind: "tool_timeout", name: "x", error: "slow" } }, "event"),
      entry("result", { sequence: 8, stop_reason: "end_turn", text: "done", usage: { llm_calls: 2 } }, "terminal"),
    ]);
    expect(items.map((i) => i.kind)).toEqual(["ack", "thinking", "tool", "status", "text", "warning", "result"]);
    expect(items[0]).toMatchObject({ kind: "ack", accepted: true, maxTokens: "4,096", tokenSeen: true, seq: "1" });
    expect(JSON.stringify(items)).not.toContain("tok-1");
    expect(items[2]).toMatchObject({ kind: "tool", name: "stream_ls", input: '{"json":true}', result: { output: "[]", isError: true } });
    expect(items[3]).toMatchObject({ text: "iteration 1 · input 6,120 · output 88" });
    expect(items[4]).toMatchObject({ text: "done", final: true });
    expect(items[5]).toMatchObject({ warning: "tool_timeout", detail: "x · slow" });
    expect(items[6]).toMatchObject({ stopReason: "end_turn", usage: "LLM calls 2" });
  });

  it("keeps unknown kinds as raw JSON with the token redacted, and errors with their code", () => {
    const items = taskItems([
      entry("event.citation", { block: { source: "rfc1" }, conversation_token: "tok-2" }, "event"),
      entry("event.tool_result", { block: { call_id: "never", output: "x" } }, "event"),
      entry("elicit.request.select", { question_id: "q1", question: "Which?", options: ["a"] }, "event"),
      { ...entry("tool.reply", {}, "foreign"), note: "another request's" },
      entry("error", { error: "suspended run", code: "suspended", stop_reason: "suspended" }, "terminal"),
    ]);
    expect(items[0]).toMatchObject({ kind: "raw", label: "event.citation" });
    expect(items[0]!.kind === "raw" && items[0]!.json).toContain('"source": "rfc1"');
    expect(JSON.stringify(items)).not.toContain("tok-2");
    expect(items[1]).toMatchObject({ kind: "tool", name: "(call not seen)", result: { output: "x", isError: false } });
    expect(items[2]).toMatchObject({ kind: "question", questionId: "q1", question: "Which?" });
    expect(items[3]).toMatchObject({ kind: "dropped", note: "foreign: another request's" });
    expect(items[4]).toMatchObject({ kind: "error", error: "suspended run", code: "suspended" });
  });

  it("lists usage counts in a fixed order and ignores anything else", () => {
    expect(usageText({ tool_calls: 1, input_tokens: 10, bogus: 3, cache_read_tokens: "x" })).toBe("input 10 · tool calls 1");
    expect(usageText(null)).toBe("");
  });
});
