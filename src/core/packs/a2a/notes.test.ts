import { describe, expect, it } from "vitest";
import type { Candidate } from "../../validation/types.ts";
import { kindOf } from "./catalog.ts";
import { A2A_V01, A2A_V02, A2A_V03, A2A_V10 } from "./index.ts";
import { a2aNotes } from "./notes.ts";

const as = (pack: Candidate["pack"], kindId: string): Candidate => ({ pack, kind: kindOf(pack, kindId), score: 1, evidence: [] });
const error = (code: number) => ({ jsonrpc: "2.0", id: 1, error: { code, message: "m" } });

describe("A2A notes", () => {
  it("names the error code as the message's version names it", () => {
    expect(a2aNotes(error(-32001), as(A2A_V02, "error"))[0]).toContain("-32001 is TaskNotFoundError in A2A v0.2.x");
    expect(a2aNotes(error(-32006), as(A2A_V01, "error"))[0]).toContain("StreamingNotSupported");
    expect(a2aNotes(error(-32006), as(A2A_V03, "error"))[0]).toContain("InvalidAgentResponseError");
    expect(a2aNotes(error(-32007), as(A2A_V03, "error"))[0]).toContain("AuthenticatedExtendedCardNotConfiguredError");
    expect(a2aNotes(error(-32009), as(A2A_V10, "error"))[0]).toContain("VersionNotSupportedError");
    expect(a2aNotes(error(-32601), as(A2A_V10, "error"))[0]).toContain("MethodNotFoundError");
    expect(a2aNotes(error(-32050), as(A2A_V10, "error"))[0]).toContain("names no error");
    expect(a2aNotes(error(12), as(A2A_V10, "error"))[0]).toContain("not a code A2A names");
    expect(a2aNotes({ jsonrpc: "2.0", id: 1, error: "boom" }, as(A2A_V10, "error"))).toEqual([]);
  });

  it("says a failed task is a result, not a protocol failure, in every dialect", () => {
    const failed = (value: unknown, candidate: Candidate) => a2aNotes(value, candidate).join(" ");
    expect(failed({ jsonrpc: "2.0", id: 1, result: { kind: "task", status: { state: "failed" } } }, as(A2A_V03, "tasks/get:result"))).toContain(
      "not a protocol failure",
    );
    expect(failed({ jsonrpc: "2.0", id: 1, result: { id: "t", status: { state: "failed" } } }, as(A2A_V01, "tasks/send:result"))).toContain("failed");
    expect(failed({ jsonrpc: "2.0", id: 1, result: { task: { status: { state: "TASK_STATE_FAILED" } } } }, as(A2A_V10, "SendMessage:result"))).toContain(
      "not a protocol failure",
    );
    expect(failed({ jsonrpc: "2.0", id: 1, result: { statusUpdate: { status: { state: 7 } } } }, as(A2A_V10, "stream:event"))).toContain("rejected");
    expect(failed({ id: "t", status: { state: "input-required" } }, as(A2A_V01, "payload:Task"))).toContain("more input");
  });

  it("has nothing to say about completed tasks, requests and cards", () => {
    expect(a2aNotes({ jsonrpc: "2.0", id: 1, result: { kind: "task", status: { state: "completed" } } }, as(A2A_V03, "tasks/get:result"))).toEqual([]);
    expect(a2aNotes({ jsonrpc: "2.0", id: 1, method: "tasks/get", params: { id: "t" } }, as(A2A_V03, "tasks/get:request"))).toEqual([]);
    expect(a2aNotes({ name: "n", status: { state: "failed" } }, as(A2A_V03, "card"))).toEqual([]);
  });
});

describe("A2A notes on hostile values", () => {
  it("treats prototype names as data", () => {
    expect(a2aNotes({ id: "t", status: { state: "constructor" } }, as(A2A_V01, "payload:Task"))).toEqual([]);
  });
});
