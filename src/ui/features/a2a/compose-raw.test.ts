import { describe, expect, it } from "vitest";
import { rawSpec } from "./compose-raw.ts";

const target = { url: "http://h/rpc", dialect: "0.3" as const, binding: "jsonrpc" as const };

describe("raw requests", () => {
  it("reads a JSON-RPC body in the dialect its method names, and a stream by its Accept", () => {
    const made = rawSpec({ method: "POST", url: "http://other/", headers: [], body: '{"jsonrpc":"2.0","id":1,"method":"tasks/sendSubscribe"}' }, { Accept: "text/event-stream" }, target);
    expect(made).toMatchObject({ dialect: "0.1", binding: "jsonrpc", target: undefined, spec: { streaming: true, body: '{"jsonrpc":"2.0","id":1,"method":"tasks/sendSubscribe"}' } });
    const same = rawSpec({ method: "POST", url: "http://h/rpc", headers: [], body: '{"jsonrpc":"2.0","id":1,"method":"tasks/get"}' }, {}, target);
    expect(same).toMatchObject({ dialect: "0.3", target });
  });

  it("refuses what cannot be sent", () => {
    expect(rawSpec({ method: "POST", url: "nope", headers: [], body: "" }, {}, undefined)).toBe("give an absolute URL (http://host:port/path)");
    expect(rawSpec({ method: "POST", url: "ftp://h/", headers: [], body: "" }, {}, undefined)).toBe("the URL must be http:// or https://");
    expect(rawSpec({ method: "GET", url: "http://h/", headers: [], body: "x" }, {}, undefined)).toBe("a GET carries no body: clear it, or choose POST");
    expect(rawSpec({ method: "GET", url: "http://h/tasks/1", headers: [], body: "" }, {}, undefined)).toMatchObject({ spec: { method: "GET" }, binding: "rest" });
  });
});
