import { describe, expect, it } from "vitest";
import type { Candidate, Issue } from "../../validation/types.ts";
import { kindOf } from "./catalog.ts";
import { A2A_V01, A2A_V03, A2A_V10 } from "./index.ts";
import { a2aRules } from "./rules.ts";

const as = (pack: Candidate["pack"], kindId: string): Candidate => ({ pack, kind: kindOf(pack, kindId), score: 1, evidence: [] });
const v1 = (kindId: string) => as(A2A_V10, kindId);
const brief = (issues: readonly Issue[]) => issues.map((i) => `${i.severity} ${i.rule} ${i.pointer}`);

const card = {
  name: "n",
  description: "d",
  supportedInterfaces: [{ url: "u", protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
  version: "1",
  capabilities: {},
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["text/plain"],
  skills: [{ id: "s", name: "S", description: "d", tags: ["t"] }],
};

describe("A2A envelope rules", () => {
  it("reports a missing jsonrpc once and still checks the rest", () => {
    const issues = a2aRules({ id: 1.5, method: "message/send", params: {} }, as(A2A_V03, "message/send:request"));
    expect(brief(issues)).toEqual(["error jsonrpc.version ", "error jsonrpc.id /id"]);
  });

  it("asks v0.1 requests for an id, which its schema does not", () => {
    const request = { jsonrpc: "2.0", method: "tasks/send", params: {} };
    expect(brief(a2aRules(request, as(A2A_V01, "tasks/send:request")))).toEqual(["error a2a.request-id "]);
    expect(a2aRules({ ...request, id: 1 }, as(A2A_V01, "tasks/send:request"))).toEqual([]);
  });

  it("applies no JSON-RPC rules to cards and bare payloads", () => {
    expect(a2aRules({ name: "n" }, as(A2A_V03, "card"))).toEqual([]);
    expect(a2aRules({ kind: "task" }, as(A2A_V03, "payload:Task"))).toEqual([]);
  });
});

describe("A2A v1.0 rules", () => {
  it("enforces each proto oneof, pointing at the extra member", () => {
    const request = (parts: unknown[]) => ({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message: { messageId: "m", role: "ROLE_USER", parts } } });
    expect(a2aRules(request([{ text: "a" }, { url: "u" }, { raw: "AA==" }, { data: 1 }]), v1("SendMessage:request"))).toEqual([]);
    const two = a2aRules(request([{ text: "a", url: "u" }]), v1("SendMessage:request"));
    expect(brief(two)).toEqual(["error a2a.v1.oneof /params/message/parts/0/url"]);
    expect(two[0]!.message).toContain("text and url");
    expect(brief(a2aRules(request([{ mediaType: "text/plain" }]), v1("SendMessage:request")))).toEqual(["error a2a.v1.oneof /params/message/parts/0"]);
    expect(brief(a2aRules({ task: {}, message: {} }, v1("payload:StreamResponse")))).toContain("error a2a.v1.oneof /message");
  });

  it("walks maps: security schemes by name, with pointer escaping", () => {
    const value = { ...card, securitySchemes: { "a/b": { apiKeySecurityScheme: { location: "header", name: "k" }, mtlsSecurityScheme: {} } } };
    expect(brief(a2aRules(value, v1("card")))).toEqual(["error a2a.v1.oneof /securitySchemes/a~1b/mtlsSecurityScheme"]);
  });

  it("warns where ProtoJSON writers omit REQUIRED lists, and on empty ones", () => {
    const { skills: _skills, ...sparse } = card;
    expect(brief(a2aRules(sparse, v1("card")))).toEqual(["warning a2a.v1.omitted-default "]);
    expect(brief(a2aRules({ ...card, skills: [] }, v1("card")))).toEqual(["warning a2a.v1.omitted-default /skills"]);
    expect(brief(a2aRules({ ...card, supportedInterfaces: [] }, v1("card")))).toEqual(["error a2a.v1.no-interface /supportedInterfaces"]);
    const page = (result: unknown) => a2aRules({ jsonrpc: "2.0", id: 1, result }, v1("ListTasks:result"));
    expect(page({ tasks: [], nextPageToken: "", pageSize: 0, totalSize: 0 })).toEqual([]);
    expect(brief(page({ tasks: [] }))).toEqual(Array(3).fill("warning a2a.v1.omitted-default /result"));
  });

  it("warns on enum numbers and unspecified values, naming the value", () => {
    const task = (state: unknown) => ({ id: "t", status: { state } });
    const number = a2aRules(task(4), v1("payload:Task"));
    expect(brief(number)).toEqual(["warning a2a.v1.integer-enum /status/state"]);
    expect(number[0]!.message).toContain("TASK_STATE_FAILED");
    expect(a2aRules(task(42), v1("payload:Task"))).toEqual([]);
    expect(brief(a2aRules(task("TASK_STATE_UNSPECIFIED"), v1("payload:Task")))).toEqual(["warning a2a.v1.unspecified-enum /status/state"]);
  });

  it("wants Major.Minor interface versions", () => {
    const value = { ...card, supportedInterfaces: [{ url: "u", protocolBinding: "JSONRPC", protocolVersion: "1.0.1" }] };
    expect(brief(a2aRules(value, v1("card")))).toEqual(["warning a2a.v1.version-format /supportedInterfaces/0/protocolVersion"]);
  });

  it("explains v0.x members and snake_case names the schema refuses", () => {
    const value = { ...card, security: [], url: "u", capabilities: { stateTransitionHistory: true }, default_input_modes: [] };
    expect(brief(a2aRules(value, v1("card"))).sort()).toEqual([
      "warning a2a.v1.legacy-member /capabilities/stateTransitionHistory",
      "warning a2a.v1.legacy-member /security",
      "warning a2a.v1.legacy-member /url",
      "warning a2a.v1.snake-case /default_input_modes",
    ]);
  });

  it("asks A2A errors for a google.rpc.ErrorInfo with the code's reason", () => {
    const error = (code: number, data?: unknown) => ({ jsonrpc: "2.0", id: 1, error: { code, message: "m", ...(data === undefined ? {} : { data }) } });
    const info = (reason: string) => [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason, domain: "a2a-protocol.org" }];
    expect(a2aRules(error(-32001, info("TASK_NOT_FOUND")), v1("error"))).toEqual([]);
    expect(brief(a2aRules(error(-32001), v1("error")))).toEqual(["warning a2a.v1.error-info /error"]);
    expect(brief(a2aRules(error(-32001, { taskId: "t" }), v1("error")))).toEqual(["warning a2a.v1.error-info /error/data"]);
    expect(brief(a2aRules(error(-32009, info("TASK_NOT_FOUND")), v1("error")))).toEqual(["warning a2a.v1.error-info /error/data"]);
    expect(a2aRules(error(-32601, { method: "x" }), v1("error"))).toEqual([]);
  });

  it("stops walking very deep values", () => {
    let history: unknown = { messageId: "m", role: "ROLE_USER", parts: [] };
    for (let i = 0; i < 200; i += 1) history = { id: "t", status: { state: "TASK_STATE_WORKING", message: history } };
    expect(() => a2aRules(history, v1("payload:Task"))).not.toThrow();
  });
});

describe("A2A v1.0 rules on hostile member names", () => {
  it("treats prototype names as unknown members", () => {
    const value = JSON.parse('{"id":"t","status":{"state":"TASK_STATE_WORKING"},"constructor":1,"__proto__":{"kind":"task"}}') as unknown;
    expect(a2aRules(value, v1("payload:Task"))).toEqual([]);
  });
});
