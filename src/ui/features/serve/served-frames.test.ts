import { describe, expect, it } from "vitest";
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
    expect(log.entries().map((e) => [e.target, e.size, e.note])).toEqual([
      ["served mcp", 0, "1 served MCP frame was not kept by the backend before the console read it"],
      ["served nats", 0, "7 served NATS frames were not kept by the backend before the console read them"],
    ]);
  });
});
