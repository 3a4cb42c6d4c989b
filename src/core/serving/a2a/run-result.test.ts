import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { DEMO_TOOLKIT } from "../demo-toolkit.ts";
import type { ToolDef } from "../toolkit/toolkit-types.ts";
import { runEnding } from "./run-result.ts";
import { chunks } from "./task-events.ts";
import { streamingTimeoutS, TCK_HOLD_MS, tckHold } from "./tck-contract.ts";

const echo = DEMO_TOOLKIT.tools[0]!;
const structured: ToolDef = { ...echo, outputSchema: { type: "object" } };
const ran = (exitCode: number | null, text: string, extra: { signal?: string; truncated?: boolean } = {}) =>
  ({ kind: "ran", commandLine: "ls -l", exitCode, signal: extra.signal ?? null, output: { text, truncated: extra.truncated ?? false } }) as const;

describe("runEnding", () => {
  it("completes on exit 0, the output as the artifact with the command in its metadata", () => {
    expect(runEnding(echo, ran(0, "a\nb\n"))).toEqual({
      artifact: { name: "output", text: "a\nb\n", metadata: { command: "ls -l", exitCode: 0 } },
      state: TaskState.TASK_STATE_COMPLETED,
      reason: "ls -l exited with code 0",
    });
  });

  it("fails on any other exit, keeping the output", () => {
    expect(runEnding(echo, ran(2, "no such file\n"))).toEqual({
      artifact: { name: "output", text: "no such file\n", metadata: { command: "ls -l", exitCode: 2 } },
      state: TaskState.TASK_STATE_FAILED,
      reason: "ls -l exited with code 2; its output is the task's artifact",
    });
    const killed = runEnding(echo, ran(null, "", { signal: "SIGKILL", truncated: true }));
    expect(killed).toMatchObject({ state: TaskState.TASK_STATE_FAILED, reason: "ls -l was ended by SIGKILL; its output is the task's artifact" });
    expect(killed.artifact?.metadata).toEqual({ command: "ls -l", exitCode: -1, signal: "SIGKILL", truncated: true });
  });

  it("adds the parsed output as data when the tool declares an output schema and prints a JSON object", () => {
    expect(runEnding(structured, ran(0, '{"n":1}')).artifact?.data).toEqual({ n: 1 });
    expect(runEnding(structured, ran(0, "[1]")).artifact).not.toHaveProperty("data");
    expect(runEnding(structured, ran(0, '{"n":', { truncated: true })).artifact).not.toHaveProperty("data");
    expect(runEnding(echo, ran(0, '{"n":1}')).artifact).not.toHaveProperty("data");
  });

  it("gives an in-process tool's text, with its structured value, and fails or cancels on a harness error", () => {
    expect(runEnding(echo, { kind: "text", text: "5", structured: { sum: 5 } })).toEqual({ artifact: { name: "result", text: "5", data: { sum: 5 } }, state: TaskState.TASK_STATE_COMPLETED });
    expect(runEnding(echo, { kind: "harness-error", reason: "timeout", message: "too slow" })).toEqual({ state: TaskState.TASK_STATE_FAILED, reason: "too slow" });
    expect(runEnding(echo, { kind: "harness-error", reason: "cancelled", message: "stopped" })).toEqual({ state: TaskState.TASK_STATE_CANCELED, reason: "stopped" });
  });
});

describe("chunks", () => {
  it("cuts text into pieces of at most the size, never inside a surrogate pair, losing nothing", () => {
    expect(chunks("")).toEqual([""]);
    expect(chunks("abcdefg", 3)).toEqual(["abc", "def", "g"]);
    const emoji = "ab😀cd";
    const pieces = chunks(emoji, 3);
    expect(pieces.join("")).toBe(emoji);
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(3);
    expect(pieces).toEqual(["ab", "😀c", "d"]);
  });
});

describe("the TCK's documented behaviours", () => {
  it("reads TCK_STREAMING_TIMEOUT as the TCK does, 2 s by default", () => {
    expect(streamingTimeoutS(undefined)).toBe(2);
    expect(streamingTimeoutS("5")).toBe(5);
    expect(streamingTimeoutS("0.5")).toBe(0.5);
    expect(streamingTimeoutS("-1")).toBe(2);
    expect(streamingTimeoutS("soon")).toBe(2);
  });

  it("holds a test-resubscribe-message-id task at least 2 × the timeout, every other task the base hold", () => {
    const hold = tckHold(2);
    expect(hold("test-resubscribe-message-id-123")).toBeGreaterThanOrEqual(4000);
    expect(hold("cancel-test-message-id-123")).toBe(TCK_HOLD_MS);
    expect(tckHold(10)("test-resubscribe-message-id")).toBeGreaterThanOrEqual(20_000);
    expect(tckHold(2, 100)("anything")).toBe(100);
  });
});
