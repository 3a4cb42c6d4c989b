import { describe, expect, it } from "vitest";
import { bindingsOf, buildRequest, DIALECTS, jsonRpcMethod, operationsOf, STREAMING_OPERATIONS, type Binding, type Dialect, type HttpRequestSpec, type Operation } from "../../../core/a2a/index.ts";
import { A2A_PACKS } from "../../../core/packs/a2a/index.ts";
import { PACK_OF } from "./card-state.svelte.ts";
import { answerPlan, readingOf, requestPlan, restOperationOf, type Plan } from "./frame-plan.ts";

const URL_BASE = "http://agent.test/a2a";
const input = { message: { messageId: "m1", parts: [{ kind: "text" as const, text: "hi" }] }, taskId: "t1", configId: "c1", pushUrl: "http://hook.test/" };

function request(dialect: Dialect, binding: Binding, op: Operation): HttpRequestSpec {
  return buildRequest({ url: URL_BASE, dialect, binding }, op, input);
}

const kindOf = (plan: Plan | undefined): string | undefined => (plan?.check ? plan.override?.kindId : undefined);
const reasonOf = (plan: Plan | undefined): string => (plan && !plan.check ? plan.reason : "");
const rpcResult = (result: unknown) => JSON.stringify({ jsonrpc: "2.0", id: 1, result });

/** Every kind a plan names must exist in the pack it names, or the engine would find nothing to judge by. */
function expectKnown(plan: Plan | undefined): void {
  if (!plan?.check || !plan.override) return;
  const pack = A2A_PACKS.find((p) => p.id === plan.override!.packId);
  expect(pack, plan.override.packId).toBeDefined();
  if (plan.override.kindId) expect(pack!.kinds.map((k) => k.id), `${plan.override.packId} ${plan.override.kindId}`).toContain(plan.override.kindId);
}

describe("frame plans: JSON-RPC", () => {
  for (const dialect of DIALECTS) {
    for (const op of operationsOf(dialect, "jsonrpc")) {
      it(`v${dialect} ${op}: the request by its method, the answer by the method's result or the dialect's stream kind`, () => {
        const spec = request(dialect, "jsonrpc", op);
        const reading = readingOf(spec, dialect, "jsonrpc");
        const method = jsonRpcMethod(op, dialect)!;
        expect(reading).toEqual({ dialect, binding: "jsonrpc", operation: op, method });
        const sent = requestPlan(reading, spec.body);
        expect(sent).toEqual({ check: true, override: { packId: PACK_OF[dialect], kindId: `${method}:request` } });
        expectKnown(sent);
        const answer = answerPlan(reading, rpcResult({ kind: "task", id: "t1" }), 200);
        if (STREAMING_OPERATIONS.has(op)) expect(kindOf(answer)).toBe(dialect === "0.1" ? "stream:status-update" : "stream:event");
        else expect(kindOf(answer)).toBe(`${method}:result`);
        expectKnown(answer);
        const error = answerPlan(reading, JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: -32001, message: "nope" } }), 200);
        expect(error).toEqual({ check: true, override: { packId: PACK_OF[dialect], kindId: "error" } });
        expectKnown(error);
      });
    }
  }

  it("stream events by what they are: v0.1 by member, v0.2 and v0.3 by kind, v1.0 one StreamResponse kind", () => {
    const stream = (dialect: Dialect) => readingOf(request(dialect, "jsonrpc", "stream"), dialect, "jsonrpc");
    expect(kindOf(answerPlan(stream("0.1"), rpcResult({ id: "t", artifact: { parts: [] } }), 200))).toBe("stream:artifact-update");
    expect(kindOf(answerPlan(stream("0.1"), rpcResult({ id: "t", status: { state: "working" }, final: false }), 200))).toBe("stream:status-update");
    for (const d of ["0.2", "0.3"] as const) {
      expect(kindOf(answerPlan(stream(d), rpcResult({ kind: "status-update" }), 200))).toBe("stream:status-update");
      expect(kindOf(answerPlan(stream(d), rpcResult({ kind: "artifact-update" }), 200))).toBe("stream:artifact-update");
      expect(kindOf(answerPlan(stream(d), rpcResult({ kind: "message" }), 200))).toBe("stream:event");
      // A kind no event has is judged as Task or Message, where it fails.
      expect(kindOf(answerPlan(stream(d), rpcResult({ kind: "progress" }), 200))).toBe("stream:event");
    }
    expect(kindOf(answerPlan(stream("1.0"), rpcResult({ statusUpdate: {} }), 200))).toBe("stream:event");
    const subscribe = readingOf(request("0.2", "jsonrpc", "subscribe"), "0.2", "jsonrpc");
    expect(kindOf(answerPlan(subscribe, rpcResult({ kind: "artifact-update" }), 200))).toBe("stream:artifact-update");
  });

  it("the body's own method decides: an edited method of another dialect leaves the kind to the engine, within the dialect's pack", () => {
    const spec = { ...request("1.0", "jsonrpc", "send"), body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: {} }) };
    const reading = readingOf(spec, "1.0", "jsonrpc");
    expect(reading.operation).toBeUndefined();
    expect(requestPlan(reading, spec.body)).toEqual({ check: true, override: { packId: "a2a/v1.0" } });
    expect(answerPlan(reading, rpcResult({}), 200)).toEqual({ check: true, override: { packId: "a2a/v1.0" } });
    // A template edited into another operation of the same dialect is judged as that one.
    const edited = { ...request("0.2", "jsonrpc", "send"), body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tasks/get", params: { id: "t" } }) };
    expect(kindOf(requestPlan(readingOf(edited, "0.2", "jsonrpc"), edited.body))).toBe("tasks/get:request");
  });

  it("a raw request of no known dialect is classified by the engine; a non-JSON answer still goes to it", () => {
    const raw: HttpRequestSpec = { method: "POST", url: URL_BASE, headers: {}, body: '{"jsonrpc":"2.0","id":1,"method":"tasks/send","params":{}}', streaming: false };
    const reading = readingOf(raw, undefined, "jsonrpc");
    expect(reading.operation).toBe("send");
    expect(requestPlan(reading, raw.body)).toEqual({ check: true });
    expect(answerPlan(reading, "<html>", 200)).toEqual({ check: true });
    const v02 = readingOf({ ...raw, body: "{ not json" }, "0.2", "jsonrpc");
    expect(answerPlan(v02, "{ not json", 200)).toEqual({ check: true, override: { packId: "a2a/v0.2" } });
  });
});

describe("frame plans: HTTP+JSON", () => {
  it("v1.0 bodies by the kind their route returns, and plainly not checked where the pack has none", () => {
    const expected: Partial<Record<Operation, string>> = { stream: "payload:StreamResponse", subscribe: "payload:StreamResponse", get: "payload:Task", cancel: "payload:Task", "extended-card": "card" };
    for (const op of operationsOf("1.0", "rest")) {
      const spec = request("1.0", "rest", op);
      const reading = readingOf(spec, "1.0", "rest");
      const answer = answerPlan(reading, "{}", 200);
      expectKnown(answer);
      if (expected[op]) expect(answer, op).toEqual({ check: true, override: { packId: "a2a/v1.0", kindId: expected[op] } });
      else expect(reasonOf(answer), op).toMatch(/^no schema kind for the A2A v1\.0 HTTP\+JSON \w+ body$/);
      const sent = requestPlan(reading, spec.body);
      if (spec.body === undefined) expect(sent).toBeUndefined();
      else expect(reasonOf(sent), op).toMatch(/^no schema (kind )?for/);
    }
    expect(reasonOf(answerPlan(readingOf(request("1.0", "rest", "send"), "1.0", "rest"), "{}", 200))).toBe("no schema kind for the A2A v1.0 HTTP+JSON SendMessageResponse body");
    // An error body is google.rpc.Status, not the route's answer.
    expect(reasonOf(answerPlan(readingOf(request("1.0", "rest", "get"), "1.0", "rest"), '{"error":{"code":404}}', 404))).toContain("error bodies");
  });

  it("v0.3 bodies are proto JSON, which no pack describes: never checked, never valid", () => {
    for (const op of operationsOf("0.3", "rest")) {
      const reading = readingOf(request("0.3", "rest", op), "0.3", "rest");
      expect(reasonOf(answerPlan(reading, '{"task":{}}', 200))).toContain("no schema for A2A v0.3 HTTP+JSON bodies");
    }
    const send = request("0.3", "rest", "send");
    expect(reasonOf(requestPlan(readingOf(send, "0.3", "rest"), send.body))).toContain("no schema for A2A v0.3 HTTP+JSON bodies");
  });

  it("a raw REST request is read by its route, a tenant prefix and v1.0's GET subscribe included", () => {
    expect(restOperationOf("GET", `${URL_BASE}/tasks/t1`, "1.0")).toBe("get");
    expect(restOperationOf("GET", `${URL_BASE}/acme/tasks/t1?historyLength=2`, "1.0")).toBe("get");
    expect(restOperationOf("POST", `${URL_BASE}/tasks/t1:cancel`, "1.0")).toBe("cancel");
    expect(restOperationOf("GET", `${URL_BASE}/tasks/t1:subscribe`, "1.0")).toBe("subscribe");
    expect(restOperationOf("GET", `${URL_BASE}/tasks/t1/pushNotificationConfigs/c1`, "1.0")).toBe("push-get");
    expect(restOperationOf("DELETE", `${URL_BASE}/tasks/t1/pushNotificationConfigs/c1`, "1.0")).toBe("push-delete");
    expect(restOperationOf("GET", `${URL_BASE}/v1/tasks/t1`, "0.3")).toBe("get");
    expect(restOperationOf("POST", `${URL_BASE}/tasks/t1`, "1.0")).toBeUndefined();
    const raw: HttpRequestSpec = { method: "GET", url: `${URL_BASE}/tasks/t1`, headers: {}, streaming: false };
    expect(answerPlan(readingOf(raw, "1.0", "rest"), "{}", 200)).toEqual({ check: true, override: { packId: "a2a/v1.0", kindId: "payload:Task" } });
    expect(reasonOf(answerPlan(readingOf(raw, undefined, "rest"), "{}", 200))).toContain("dialect");
    expect(reasonOf(answerPlan(readingOf({ ...raw, url: `${URL_BASE}/nowhere` }, "1.0", "rest"), "{}", 200))).toContain("names no A2A v1.0 operation");
  });

  it("only v0.3 and v1.0 have the binding", () => {
    expect(DIALECTS.filter((d) => bindingsOf(d).includes("rest"))).toEqual(["0.3", "1.0"]);
  });
});
