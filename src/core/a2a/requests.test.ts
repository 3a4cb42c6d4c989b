import { describe, expect, it } from "vitest";
import { createValidationEngine } from "../packs/index.ts";
import { bindingsOf, DIALECTS, operationsOf, type Dialect } from "./dialect.ts";
import { buildRequest, UnsupportedOperationError, type OperationInput } from "./requests.ts";

const PACK_VERSION: Record<Dialect, string> = { "0.1": "0.1.0", "0.2": "0.2.6", "0.3": "0.3.0", "1.0": "1.0" };
const input: OperationInput = {
  message: { messageId: "m-1", parts: [{ kind: "text", text: "hello" }, { kind: "data", data: { n: 1 } }, { kind: "file", name: "a.txt", mediaType: "text/plain", bytes: "aGk=" }] },
  taskId: "t-1",
  sessionId: "s-1",
  configId: "c-1",
  pushUrl: "http://127.0.0.1:9/push",
  pushToken: "tok",
};

describe("buildRequest", () => {
  it("writes the exact v0.1 tasks/send body, with the client's task id and sessionId", () => {
    const spec = buildRequest({ url: "http://a/rpc", dialect: "0.1", binding: "jsonrpc" }, "send", { message: { messageId: "", parts: [{ kind: "text", text: "hi" }] }, taskId: "t-9", sessionId: "s-9" }, {}, 7);
    expect(JSON.parse(spec.body!)).toEqual({ jsonrpc: "2.0", id: 7, method: "tasks/send", params: { id: "t-9", sessionId: "s-9", message: { role: "user", parts: [{ type: "text", text: "hi" }] } } });
    expect(spec.headers).toEqual({ "Content-Type": "application/json", Accept: "application/json" });
  });

  it("writes the exact v1.0 SendMessage body and sends A2A-Version", () => {
    const spec = buildRequest({ url: "http://a/", dialect: "1.0", binding: "jsonrpc" }, "stream", { message: { messageId: "m", contextId: "ctx", parts: [{ kind: "text", text: "hi" }] } }, {}, 1);
    expect(JSON.parse(spec.body!)).toEqual({ jsonrpc: "2.0", id: 1, method: "SendStreamingMessage", params: { message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "hi" }], contextId: "ctx" } } });
    expect(spec.headers).toMatchObject({ "A2A-Version": "1.0", Accept: "text/event-stream" });
    expect(spec.streaming).toBe(true);
  });

  it("routes REST by dialect: v0.3 under /v1, v1.0 without, the task id in the path", () => {
    expect(buildRequest({ url: "http://a/rest/", dialect: "0.3", binding: "rest" }, "cancel", { taskId: "t/1" })).toMatchObject({ method: "POST", url: "http://a/rest/v1/tasks/t%2F1:cancel", body: "{}" });
    const get = buildRequest({ url: "http://a/rest", dialect: "1.0", binding: "rest" }, "get", { taskId: "t1", historyLength: 2 });
    expect(get).toMatchObject({ method: "GET", url: "http://a/rest/tasks/t1?historyLength=2" });
    expect(get.body).toBeUndefined();
    expect(get.headers["Content-Type"]).toBeUndefined();
    expect(buildRequest({ url: "http://a", dialect: "1.0", binding: "rest", tenant: "acme" }, "send", input).url).toBe("http://a/acme/message:send");
    expect(buildRequest({ url: "http://a", dialect: "1.0", binding: "rest" }, "send", input).headers["Content-Type"]).toBe("application/a2a+json");
  });

  it("leaves A2A-Version out on purpose, or sends it to an older dialect, when told", () => {
    expect(buildRequest({ url: "http://a", dialect: "1.0", binding: "jsonrpc" }, "get", input, { versionHeader: "omit" }).headers["A2A-Version"]).toBeUndefined();
    expect(buildRequest({ url: "http://a", dialect: "0.3", binding: "jsonrpc" }, "get", input, { versionHeader: "send" }).headers["A2A-Version"]).toBe("0.3");
    expect(buildRequest({ url: "http://a", dialect: "0.3", binding: "jsonrpc" }, "get", input).headers["A2A-Version"]).toBeUndefined();
  });

  it("refuses an operation the dialect does not have, by name", () => {
    expect(() => buildRequest({ url: "http://a", dialect: "0.1", binding: "jsonrpc" }, "list", input)).toThrow(UnsupportedOperationError);
    expect(() => buildRequest({ url: "http://a", dialect: "0.2", binding: "rest" }, "send", input)).toThrow(/no HTTP\+JSON route in A2A 0.2/);
  });

  // Every JSON-RPC request Patchbay builds must pass its own validator as the dialect's version.
  const engine = createValidationEngine();
  for (const dialect of DIALECTS) {
    for (const binding of bindingsOf(dialect)) {
      if (binding !== "jsonrpc") continue;
      for (const operation of operationsOf(dialect, binding)) {
        it(`A2A ${dialect} ${operation} passes the ${PACK_VERSION[dialect]} schema`, () => {
          const spec = buildRequest({ url: "http://a", dialect, binding }, operation, input);
          const verdict = engine.session().validateText(spec.body!);
          expect(verdict.issues.filter((i) => i.severity === "error"), verdict.kindLabel).toEqual([]);
          expect(verdict.status).toBe("valid");
          expect(verdict.family).toBe("a2a");
          expect(verdict.validIn?.includes(PACK_VERSION[dialect]) || verdict.version === PACK_VERSION[dialect], `${verdict.version} ${verdict.validIn?.join(",")}`).toBe(true);
        });
      }
    }
  }
});
