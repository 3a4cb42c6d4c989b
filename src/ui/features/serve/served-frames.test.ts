import { describe, expect, it } from "vitest";
import type { ServedFrame } from "../../../core/backend/serve-api.ts";
import { manualClock, sequentialIds } from "../../../core/env/index.ts";
import { WireLog } from "../../../core/wire/index.ts";
import { ServedFrameRecorder } from "./served-frames.ts";

const dec = new TextDecoder();

function setup() {
  const log = new WireLog(manualClock());
  return { log, recorder: new ServedFrameRecorder(log, sequentialIds("n")) };
}

describe("ServedFrameRecorder", () => {
  it("records MCP frames verbatim, pairs a client's request with the answer by session and id, with the backend's timing", () => {
    const { log, recorder } = setup();
    const request = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}';
    recorder.mcp({ seq: 1, at: 1000, direction: "in", session: "s1", text: request });
    recorder.mcp({ seq: 2, at: 1000, direction: "in", session: "s2", text: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    recorder.mcp({ seq: 3, at: 1042, direction: "out", session: "s1", text: '{"jsonrpc":"2.0","id":1,"result":{}}' });
    const [req, other, res] = log.entries();
    expect(req).toMatchObject({ channel: "mcp", direction: "in", target: "served mcp", correlationId: "s1/1" });
    expect(dec.decode(req?.bytes)).toBe(request);
    expect(req?.decoded.method).toBe("tools/call");
    expect(other?.correlationId).toBe("s2/1");
    expect(res).toMatchObject({ direction: "out", correlationId: "s1/1", rttMs: 42 });
  });

  it("keys the agent's own requests (elicitation) apart from the client's, and gives notifications fresh ids", () => {
    const { log, recorder } = setup();
    recorder.mcp({ seq: 1, at: 0, direction: "out", session: "s", text: '{"jsonrpc":"2.0","id":0,"method":"elicitation/create"}' });
    recorder.mcp({ seq: 2, at: 5, direction: "in", session: "s", text: '{"jsonrpc":"2.0","id":0,"result":{"action":"accept"}}' });
    recorder.mcp({ seq: 3, at: 6, direction: "in", text: '{"jsonrpc":"2.0","method":"notifications/initialized"}' });
    recorder.mcp({ seq: 4, at: 7, direction: "in", text: "not json {" });
    const entries = log.entries();
    expect(entries.map((e) => e.correlationId)).toEqual(["s/server:0", "s/server:0", "n-1", "n-2"]);
    expect(entries[1]?.rttMs).toBe(5);
    expect(entries[3]?.decoded.jsonError).toBeDefined();
  });

  it("says when the backend cut a frame", () => {
    const { log, recorder } = setup();
    recorder.mcp({ seq: 1, at: 0, direction: "out", text: "abc", truncated: true, length: 2_000_000 });
    expect(log.entries()[0]?.note).toBe("cut by the backend: the first 3 of 2000000 characters");
  });

  it("records NATS frames by subject with headers, correlated by the reply subject", () => {
    const { log, recorder } = setup();
    recorder.nats({ seq: 1, at: 100, direction: "in", subject: "choria.fisk-ai.tool.demo", reply: "_INBOX.x", text: '{"protocol":"io.choria.fisk-ai.v1.tool.request"}' });
    recorder.nats({ seq: 2, at: 130, direction: "out", subject: "_INBOX.x", headers: { "Fisk-AI-Stream-Final": ["true"] }, text: "{}" });
    const [req, reply] = log.entries();
    expect(req).toMatchObject({ channel: "nats", direction: "in", target: "served nats choria.fisk-ai.tool.demo", correlationId: "_INBOX.x" });
    expect(req?.decoded.protocolId).toBe("io.choria.fisk-ai.v1.tool.request");
    expect(reply).toMatchObject({ target: "served nats _INBOX.x", correlationId: "_INBOX.x", rttMs: 30, headers: { "Fisk-AI-Stream-Final": ["true"] } });
  });

  it("marks a gap where the backend dropped frames", () => {
    const { log, recorder } = setup();
    recorder.gap("mcp", 1);
    recorder.gap("nats", 7);
    recorder.gap("a2a", 2);
    expect(log.entries().map((e) => [e.channel, e.target, e.size, e.note])).toEqual([
      ["mcp", "served mcp", 0, "1 served MCP frame was not kept by the backend before the console read it"],
      ["nats", "served nats", 0, "7 served NATS frames were not kept by the backend before the console read them"],
      ["a2a-http", "served a2a", 0, "2 served A2A frames were not kept by the backend before the console read them"],
    ]);
  });
});

describe("ServedFrameRecorder, A2A", () => {
  const rpc = (extra: Partial<ServedFrame>): ServedFrame => ({ seq: 0, at: 0, direction: "in", binding: "jsonrpc", method: "POST", path: "/a2a/jsonrpc", text: "", ...extra });
  const rest = (extra: Partial<ServedFrame>): ServedFrame => ({ seq: 0, at: 0, direction: "in", binding: "rest", method: "POST", path: "/a2a/rest/v1/message:send", text: "", ...extra });

  it("records JSON-RPC frames verbatim on the A2A channel: a request and its stream's events share its id, each event its own entry", () => {
    const { log, recorder } = setup();
    const request = '{"jsonrpc":"2.0","id":"r1","method":"message/stream","params":{"message":{"kind":"message","parts":[]}}}';
    recorder.a2a(rpc({ at: 1000, text: request }));
    recorder.a2a(rpc({ at: 1000, text: '{"jsonrpc":"2.0","id":7,"method":"tasks/get","params":{"id":"t"}}' }));
    recorder.a2a(rpc({ at: 1010, direction: "out", text: '{"jsonrpc":"2.0","id":"r1","result":{"kind":"task","id":"t1"}}' }));
    recorder.a2a(rpc({ at: 1012, direction: "out", status: 200, text: '{"jsonrpc":"2.0","id":7,"result":{"kind":"task"}}' }));
    recorder.a2a(rpc({ at: 1030, direction: "out", text: '{"jsonrpc":"2.0","id":"r1","result":{"kind":"status-update","final":true}}' }));
    const [req, get, first, got, last] = log.entries();
    expect(req).toMatchObject({ channel: "a2a-http", direction: "in", target: "served a2a POST /a2a/jsonrpc", correlationId: "served-a2a/r1", headers: { ":method": ["POST"] } });
    expect(dec.decode(req?.bytes)).toBe(request);
    expect(req?.decoded.method).toBe("message/stream");
    expect(first).toMatchObject({ direction: "out", correlationId: "served-a2a/r1", rttMs: 10 });
    expect(first?.decoded.requestMethod).toBe("message/stream");
    expect(first?.headers).toBeUndefined();
    expect(last).toMatchObject({ correlationId: "served-a2a/r1", rttMs: 30 });
    expect(last?.decoded.requestMethod).toBe("message/stream");
    expect(get?.correlationId).toBe("served-a2a/7");
    expect(got).toMatchObject({ correlationId: "served-a2a/7", status: 200, rttMs: 12 });
    expect(got?.decoded.requestMethod).toBe("tasks/get");
  });

  it("pairs HTTP+JSON answers with the oldest unanswered request on the same route, and a stream's events with the request that opened it", () => {
    const { log, recorder } = setup();
    recorder.a2a(rest({ at: 0, text: '{"message":{"text":"a"}}' }));
    recorder.a2a(rest({ at: 5, text: '{"message":{"text":"b"}}' }));
    recorder.a2a(rest({ at: 6, method: "GET", path: "/a2a/rest/v1/tasks/t1", text: "{}" }));
    recorder.a2a(rest({ at: 20, direction: "out", status: 201, text: '{"task":"a"}' }));
    recorder.a2a(rest({ at: 21, direction: "out", method: "GET", path: "/a2a/rest/v1/tasks/t1", status: 200, text: '{"id":"t1"}' }));
    recorder.a2a(rest({ at: 30, direction: "out", status: 201, text: '{"task":"b"}' }));
    recorder.a2a(rest({ at: 31, direction: "out", status: 201, text: '{"task":"stray"}' }));
    recorder.a2a(rest({ at: 40, path: "/a2a/rest/v1/message:stream", text: '{"message":{}}' }));
    recorder.a2a(rest({ at: 41, direction: "out", path: "/a2a/rest/v1/message:stream", status: 200, text: '{"task":{}}' }));
    recorder.a2a(rest({ at: 45, direction: "out", path: "/a2a/rest/v1/message:stream", status: 200, text: '{"statusUpdate":{}}' }));
    const e = log.entries();
    const ids = e.map((x) => x.correlationId);
    expect(ids[3]).toBe(ids[0]);
    expect(ids[5]).toBe(ids[1]);
    expect(ids[4]).toBe(ids[2]);
    expect(new Set([ids[0], ids[1], ids[2], ids[6]]).size).toBe(4);
    expect(ids[8]).toBe(ids[7]);
    expect(ids[9]).toBe(ids[7]);
    expect(ids[7]).not.toBe(ids[0]);
    expect(e.map((x) => x.rttMs)).toEqual([undefined, undefined, undefined, 20, 15, 25, undefined, undefined, 1, 5]);
    expect(e[2]).toMatchObject({ target: "served a2a GET /a2a/rest/v1/tasks/t1", headers: { ":method": ["GET"] } });
    expect(e[3]).toMatchObject({ channel: "a2a-http", status: 201, target: "served a2a POST /a2a/rest/v1/message:send" });
  });

  it("gives each card read and each frame without a usable id an exchange of its own", () => {
    const { log, recorder } = setup();
    recorder.a2a({ seq: 1, at: 0, direction: "out", binding: "card", method: "GET", path: "/.well-known/agent-card.json", status: 200, text: '{"name":"demo"}' });
    recorder.a2a({ seq: 2, at: 1, direction: "out", binding: "card", method: "GET", path: "/.well-known/agent-card.json", status: 200, text: '{"name":"demo"}' });
    recorder.a2a(rpc({ text: "not json {" }));
    recorder.a2a(rpc({ direction: "out", status: 200, text: '{"jsonrpc":"2.0","id":null,"error":{"code":-32700}}' }));
    const e = log.entries();
    expect(e[0]).toMatchObject({ target: "served a2a GET /.well-known/agent-card.json", status: 200, direction: "out" });
    expect(new Set(e.map((x) => x.correlationId)).size).toBe(4);
    expect(e[2]?.decoded.jsonError).toBeDefined();
  });
});
