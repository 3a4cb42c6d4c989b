import { describe, expect, it } from "vitest";
import { RequestRefusal } from "../../../core/mcp/client-handlers.ts";
import { contentText, DECLINE_MESSAGE, SamplingState, stubResult, type SamplingParams } from "./sampling-state.svelte.ts";

const request = (text: string): SamplingParams => ({ messages: [{ role: "user", content: { type: "text", text } }], maxTokens: 20 });

describe("SamplingState", () => {
  it("prefills a stub CreateMessageResult that quotes the last user message", () => {
    const state = new SamplingState();
    void state.handle(request("What is 2+2?"));
    expect(JSON.parse(state.responseText)).toEqual({
      role: "assistant",
      content: { type: "text", text: 'This is a stub answer from Patchbay; no model was called. You asked: "What is 2+2?"' },
      model: "patchbay-stub",
      stopReason: "endTurn",
    });
    const long = stubResult(request("x".repeat(500)));
    expect(long.content).toEqual({ type: "text", text: `This is a stub answer from Patchbay; no model was called. You asked: "${"x".repeat(200)}…"` });
    expect(stubResult({ messages: [], maxTokens: 1 }).content).toEqual({ type: "text", text: "This is a stub answer from Patchbay; no model was called." });
  });

  it("keeps the dialog and the typing when the answer is not JSON or not a CreateMessageResult", async () => {
    const notes: string[] = [];
    const state = new SamplingState((t) => notes.push(t));
    const answer = state.handle(request("hi"));
    state.responseText = '{"role": "assistant",';
    state.send();
    expect(state.error).toMatch(/^The answer is not JSON: .+ \(line 1, column \d+\)\.$/);
    expect(state.responseText).toBe('{"role": "assistant",');
    state.responseText = JSON.stringify({ role: "assistant", content: { type: "text", text: "4" } });
    state.send();
    expect(state.error).toBe("This is not a CreateMessageResult: model: expected string, received undefined.");
    expect(state.pending).not.toBeNull();
    state.responseText = JSON.stringify({ role: "assistant", content: { type: "text", text: "4" }, model: "me" });
    state.send();
    await expect(answer).resolves.toEqual({ role: "assistant", content: { type: "text", text: "4" }, model: "me" });
    expect(state.pending).toBeNull();
    expect(state.error).toBeNull();
    expect(notes).toEqual(['Answered a sampling request (model "me").']);
  });

  it("queues requests; decline refuses with JSON-RPC error -1 and shows the next with its own stub", async () => {
    const state = new SamplingState();
    const first = state.handle(request("first"));
    const second = state.handle(request("second"));
    expect(state.waiting).toBe(1);
    state.responseText = "edited";
    state.decline();
    await expect(first).rejects.toEqual(new RequestRefusal(-1, DECLINE_MESSAGE));
    await first.catch((e: RequestRefusal) => expect(e.code).toBe(-1));
    expect(contentText(state.pending?.messages[0]?.content)).toBe("second");
    expect(state.responseText).toContain("You asked: \\\"second\\\"");
    expect(state.waiting).toBe(0);
    state.clear();
    await expect(second).rejects.toThrow("The client disconnected before answering the sampling request.");
    expect(state.pending).toBeNull();
  });

  it("shows non-text content as JSON", () => {
    expect(contentText([{ type: "text", text: "a" }, { type: "image", data: "AA==", mimeType: "image/png" }])).toBe('a\n{"type":"image","data":"AA==","mimeType":"image/png"}');
  });
});
