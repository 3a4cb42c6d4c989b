import { describe, expect, it } from "vitest";
import { fakeRelay } from "../../../core/mcp/test-relay.ts";
import { byteString } from "./raw-frames.ts";
import { RawJsonRpcState } from "./raw-state.svelte.ts";
import { relayHandle } from "./test-transports.ts";

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("RawJsonRpcState", () => {
  it("sends the text byte for byte and lists the frames of this connection that follow", async () => {
    const reply = '{"jsonrpc":"2.0","id":99,"error":{"code":-32601,"message":"Method not found"}}';
    const relay = fakeRelay({ onMessage: (_text, write) => write(`${JSON.stringify({ type: "message", text: reply, at: 1 })}\n`) });
    const { transport, wireLog } = relayHandle(relay);
    await transport.start();
    wireLog.record({ channel: "nats", direction: "out", target: "other", bytes: new Uint8Array([1]) });
    const raw = new RawJsonRpcState(wireLog);
    raw.text = '{"jsonrpc":"2.0","id":99,"method":"nope"}';
    await raw.send(transport);
    await tick();
    expect(relay.calls.find((c) => c.url.endsWith("/messages"))?.body).toBe(raw.text);
    expect(raw.frames.map((f) => [f.direction, byteString(f.bytes)])).toEqual([
      ["out", raw.text],
      ["in", reply],
    ]);
    raw.dispose();
  });

  it("says why nothing was sent", async () => {
    const raw = new RawJsonRpcState(relayHandle(fakeRelay()).wireLog);
    await raw.send(undefined);
    expect(raw.error).toBe("Connect to a server first");
    const relay = fakeRelay({ messages: Response.json({ error: { code: "gone", message: "session closed" } }, { status: 404 }) });
    const { transport, wireLog } = relayHandle(relay);
    await transport.start();
    const other = new RawJsonRpcState(wireLog);
    other.text = "not json";
    await other.send(transport);
    expect(other.error).toMatch(/^Not sent: relay refused the message \(HTTP 404\)/);
    expect(other.frames.map((f) => byteString(f.bytes))).toEqual(["not json"]);
  });

  it("cuts very large frames for display only", () => {
    const big = new TextEncoder().encode("x".repeat(70_000));
    expect(byteString(big)).toMatch(/… \(70000 bytes; the whole frame is in Traffic\)$/);
  });
});
