import { describe, expect, it } from "vitest";
import { jsonOrUndefined } from "../json/index.ts";
import { deliverFrame, type FrameSource } from "./incoming-frame.ts";
import { NotJsonRpcError } from "./relay-error.ts";

function deliver(text: string, source: FrameSource = "frame") {
  const messages: unknown[] = [];
  const errors: NotJsonRpcError[] = [];
  deliverFrame(jsonOrUndefined(text), text, source, (m) => messages.push(m), (e) => errors.push(e));
  return { messages, errors: errors.map((e) => (expect(e).toBeInstanceOf(NotJsonRpcError), e.message)) };
}

describe("deliverFrame", () => {
  it("hands on a message and each message of a batch, in order", () => {
    expect(deliver('{"jsonrpc":"2.0","id":1,"result":{}}')).toEqual({ messages: [{ jsonrpc: "2.0", id: 1, result: {} }], errors: [] });
    const batch = deliver('[{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":"a","error":{"code":-32601,"message":"no"}}]');
    expect(batch.messages).toHaveLength(2);
    expect(batch.errors).toEqual([]);
  });

  it("says who wrote text that is not JSON", () => {
    expect(deliver("Listening on port 3000", "stdout").errors).toEqual(["the server process wrote a line to stdout that is not JSON-RPC: Listening on port 3000"]);
    expect(deliver("<html>", "frame").errors).toEqual(["server sent a frame that is not JSON-RPC: <html>"]);
  });

  it("refuses an empty batch and JSON that is no message, keeping the valid members of a batch", () => {
    expect(deliver("[]").errors).toHaveLength(1);
    expect(deliver("null").errors).toEqual(["server sent a message that is not valid JSON-RPC 2.0: null"]);
    // Only jsonrpc "2.0" is not enough: a message has a method, a result or an error.
    const mixed = deliver('[{"jsonrpc":"2.0"},{"jsonrpc":"2.0","id":2,"result":{}},{"jsonrpc":"1.0","id":3,"result":{}}]');
    expect(mixed.messages).toEqual([{ jsonrpc: "2.0", id: 2, result: {} }]);
    expect(mixed.errors).toHaveLength(2);
  });

  it("shows no more than a preview of a large frame", () => {
    const text = `x${"y".repeat(100_000)}`;
    const [error] = deliver(text).errors;
    expect(error!.length).toBeLessThan(400);
    expect(error).toContain("(100001 characters)");
  });
});

describe("jsonOrUndefined", () => {
  it("parses JSON, and gives undefined for anything else", () => {
    expect(jsonOrUndefined('{"a":[1]}')).toEqual({ a: [1] });
    expect(jsonOrUndefined("null")).toBeNull();
    expect(jsonOrUndefined("{")).toBeUndefined();
    expect(jsonOrUndefined("")).toBeUndefined();
  });
});
