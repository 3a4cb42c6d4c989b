import { describe, expect, it } from "vitest";
import { evaluateAssertion } from "./assertions.ts";
import type { Assertion } from "./collection-types.ts";
import type { StepFrame, StepObservation } from "./run-types.ts";

const body = {
  jsonrpc: "2.0",
  id: 1,
  result: { content: [{ type: "text", text: "Echo: hi" }], count: 3, nested: { a: [1, 2], b: null }, "a/b": "slash", long: "x".repeat(500) },
};

const received = (validity?: StepFrame["validity"]): StepFrame => ({ direction: "received", atMs: 2, text: "{}", ...(validity ? { validity } : {}) });
const sent: StepFrame = { direction: "sent", atMs: 0, text: "{}" };
const ok = { valid: true, kind: "JSONRPCResponse", version: "2025-11-25", problems: [] };

function obs(extra: Partial<StepObservation> = {}): StepObservation {
  return {
    outcome: { kind: "result", message: "the tool answered" },
    body,
    frames: [sent, received(ok)],
    latencyMs: 42.25,
    stream: { kinds: ["status-update", "artifact-update", "status-update"], final: true },
    ...extra,
  };
}

const verdict = (a: Assertion, o: StepObservation = obs()) => {
  const r = evaluateAssertion(a, o);
  expect(r.assertion).toBe(a);
  return [r.passed, r.message];
};

describe("equals", () => {
  it("compares JSON deeply", () => {
    expect(verdict({ kind: "equals", pointer: "/result/nested", value: { b: null, a: [1, 2] } })).toEqual([true, '/result/nested equals {"b":null,"a":[1,2]}']);
    expect(verdict({ kind: "equals", pointer: "/result/nested/a", value: [2, 1] })).toEqual([false, "/result/nested/a is [1,2]; expected [2,1]"]);
    expect(verdict({ kind: "equals", pointer: "/result/count", value: "3" })).toEqual([false, '/result/count is 3; expected "3"']);
    expect(verdict({ kind: "equals", pointer: "/result/a~1b", value: "slash" })).toEqual([true, '/result/a~1b equals "slash"']);
  });

  it("says where the path ran out", () => {
    expect(verdict({ kind: "equals", pointer: "/result/content/5/text", value: "x" })).toEqual([false, 'nothing at /result/content/5/text: /result/content is an array of 1 item (expected "x")']);
    expect(verdict({ kind: "equals", pointer: "/result/missing", value: 1 })).toEqual([false, 'nothing at /result/missing: /result has no member "missing" (expected 1)']);
    expect(verdict({ kind: "equals", pointer: "/result/count/x", value: 1 })).toEqual([false, "nothing at /result/count/x: /result/count is an integer, not an object or array (expected 1)"]);
    expect(verdict({ kind: "equals", pointer: "/result/content/first", value: 1 })).toEqual([false, 'nothing at /result/content/first: /result/content is an array and "first" is not an index (expected 1)']);
    expect(verdict({ kind: "equals", pointer: "/x", value: 1 }, obs({ body: undefined }))).toEqual([false, "nothing at /x: the step has no answer body (expected 1)"]);
  });

  it("abbreviates long values to about 200 characters", () => {
    const [passed, message] = verdict({ kind: "equals", pointer: "/result/long", value: "y" });
    expect(passed).toBe(false);
    expect(message).toBe(`/result/long is "${"x".repeat(198)}…; expected "y"`);
  });

  it("reads the whole body with the empty pointer", () => {
    expect(verdict({ kind: "equals", pointer: "", value: 5 }, obs({ body: 5 }))).toEqual([true, "the body equals 5"]);
  });
});

describe("matches", () => {
  it("matches a string at the pointer", () => {
    expect(verdict({ kind: "matches", pointer: "/result/content/0/text", pattern: "^Echo" })).toEqual([true, '/result/content/0/text "Echo: hi" matches /^Echo/']);
    expect(verdict({ kind: "matches", pointer: "/result/content/0/text", pattern: "^Bye" })).toEqual([false, '/result/content/0/text is "Echo: hi", which does not match /^Bye/']);
  });

  it("says when the value is not a string, or is missing", () => {
    expect(verdict({ kind: "matches", pointer: "/result/count", pattern: "3" })).toEqual([false, "/result/count is 3 (an integer), not a string; expected a string matching /3/"]);
    expect(verdict({ kind: "matches", pointer: "/nope", pattern: "3" })).toEqual([false, 'nothing at /nope: the body has no member "nope" (expected a string matching /3/)']);
  });

  it("reports a pattern that does not compile", () => {
    expect(verdict({ kind: "matches", pointer: "/id", pattern: "(" })).toEqual([false, 'the pattern "(" is not a valid regular expression: Invalid regular expression: /(/: Unterminated group']);
  });
});

describe("exists and absent", () => {
  it("exists passes with the value and fails with where the path ran out", () => {
    expect(verdict({ kind: "exists", pointer: "/result/nested/b" })).toEqual([true, "/result/nested/b exists: null"]);
    expect(verdict({ kind: "exists", pointer: "/error" })).toEqual([false, 'nothing at /error: the body has no member "error"']);
  });

  it("absent is the reverse", () => {
    expect(verdict({ kind: "absent", pointer: "/error" })).toEqual([true, 'nothing at /error: the body has no member "error", as expected']);
    expect(verdict({ kind: "absent", pointer: "/id" })).toEqual([false, "/id should be absent but is 1"]);
  });
});

describe("outcome", () => {
  it("compares the kind and shows the outcome's words", () => {
    expect(verdict({ kind: "outcome", is: "result" })).toEqual([true, "outcome is result: the tool answered"]);
    expect(verdict({ kind: "outcome", is: "is-error" })).toEqual([false, "expected outcome is-error; got result: the tool answered"]);
  });

  it("compares the code and the state when given", () => {
    const rpc = obs({ outcome: { kind: "json-rpc-error", code: -32601, message: "Method not found" } });
    expect(verdict({ kind: "outcome", is: "json-rpc-error" }, rpc)).toEqual([true, "outcome is json-rpc-error: Method not found"]);
    expect(verdict({ kind: "outcome", is: "json-rpc-error", code: -32601 }, rpc)).toEqual([true, "outcome is json-rpc-error (code -32601): Method not found"]);
    expect(verdict({ kind: "outcome", is: "json-rpc-error", code: -32602 }, rpc)).toEqual([false, "expected outcome json-rpc-error (code -32602); got json-rpc-error (code -32601): Method not found"]);
    const task = obs({ outcome: { kind: "task-state", state: "failed", message: "the task failed" } });
    expect(verdict({ kind: "outcome", is: "task-state", state: "canceled" }, task)).toEqual([false, "expected outcome task-state (state canceled); got task-state (state failed): the task failed"]);
    expect(verdict({ kind: "outcome", is: "task-state", state: "failed" }, task)).toEqual([true, "outcome is task-state (state failed): the task failed"]);
  });
});

describe("latency", () => {
  it("passes below the limit and fails at or above it", () => {
    expect(verdict({ kind: "latency", belowMs: 100 })).toEqual([true, "answered in 42.3 ms, below 100 ms"]);
    expect(verdict({ kind: "latency", belowMs: 42.25 })).toEqual([false, "answered in 42.3 ms; expected below 42.3 ms"]);
    expect(verdict({ kind: "latency", belowMs: 10 }, obs({ latencyMs: 812 }))).toEqual([false, "answered in 812 ms; expected below 10 ms"]);
  });
});

describe("stream", () => {
  it("checks an exact count, a range, an order and the final marker", () => {
    const summary = "3 messages (status-update, artifact-update, status-update), final";
    expect(verdict({ kind: "stream", count: 3, order: ["status-update", "status-update"], final: true })).toEqual([true, summary]);
    expect(verdict({ kind: "stream", count: 2 })).toEqual([false, `expected 2 messages, got 3; the stream had ${summary}`]);
    expect(verdict({ kind: "stream", count: { min: 4 } })).toEqual([false, `expected at least 4 messages, got 3; the stream had ${summary}`]);
    expect(verdict({ kind: "stream", count: { max: 1 } })).toEqual([false, `expected at most 1 message, got 3; the stream had ${summary}`]);
    expect(verdict({ kind: "stream", count: { min: 1, max: 3 } })).toEqual([true, summary]);
    expect(verdict({ kind: "stream", count: { min: 4, max: 9 } })).toEqual([false, `expected 4 to 9 messages, got 3; the stream had ${summary}`]);
  });

  it("names the first kind missing from the order", () => {
    const summary = "3 messages (status-update, artifact-update, status-update), final";
    expect(verdict({ kind: "stream", order: ["artifact-update", "artifact-update"] })).toEqual([false, `expected kinds in order artifact-update, artifact-update, but no artifact-update after artifact-update; the stream had ${summary}`]);
    expect(verdict({ kind: "stream", order: ["message"] })).toEqual([false, `expected kinds in order message, but no message; the stream had ${summary}`]);
  });

  it("checks the final marker both ways, and joins several failures", () => {
    const open = obs({ stream: { kinds: [], final: false } });
    expect(verdict({ kind: "stream", final: true }, open)).toEqual([false, "expected the last message to be final, but it is not; the stream had 0 messages (none), not final"]);
    expect(verdict({ kind: "stream", final: false })).toEqual([false, "expected no final message, but the last is final; the stream had 3 messages (status-update, artifact-update, status-update), final"]);
    expect(verdict({ kind: "stream", count: 1, final: true }, open)).toEqual([false, "expected 1 message, got 0; expected the last message to be final, but it is not; the stream had 0 messages (none), not final"]);
  });

  it("fails when the answer was no stream", () => {
    expect(verdict({ kind: "stream", count: 0 }, obs({ stream: undefined }))).toEqual([false, "the answer was not a stream of messages, so there is nothing to count or order"]);
  });
});

describe("valid", () => {
  it("passes when every received frame was checked valid", () => {
    expect(verdict({ kind: "valid" }, obs({ frames: [sent, received(ok), received(ok)] }))).toEqual([true, "all 2 received frames are valid"]);
    expect(verdict({ kind: "valid", version: "2025-11-25" })).toEqual([true, "the one received frame is valid for version 2025-11-25"]);
  });

  it("names the first invalid frame and its problems", () => {
    const bad = received({ valid: false, kind: "CallToolResult (MCP 2025-11-25)", version: "2025-11-25", problems: ["/content/0: must have required property 'type'", "/isError: must be boolean"] });
    expect(verdict({ kind: "valid" }, obs({ frames: [sent, received(ok), bad, bad] }))).toEqual([
      false,
      "frame 2 (received) is invalid (as CallToolResult (MCP 2025-11-25)): /content/0: must have required property 'type'; /isError: must be boolean",
    ]);
  });

  it("fails a received frame that was not checked, and one checked against another version", () => {
    expect(verdict({ kind: "valid" }, obs({ frames: [sent, received()] }))).toEqual([false, "frame 1 (received) was not checked, so its validity is unknown"]);
    expect(verdict({ kind: "valid", version: "2025-06-18" })).toEqual([false, "frame 1 (received) was checked against version 2025-11-25 (as JSONRPCResponse), not 2025-06-18"]);
    const unversioned = received({ valid: true, problems: [] });
    expect(verdict({ kind: "valid", version: "1.0" }, obs({ frames: [unversioned] }))).toEqual([false, "frame 0 (received) was checked against no version, not 1.0"]);
  });

  it("ignores sent frames, and fails when nothing was received", () => {
    expect(verdict({ kind: "valid" }, obs({ frames: [sent] }))).toEqual([false, "no frame was received, so there is nothing to find valid"]);
  });
});
