import { describe, expect, it } from "vitest";
import { MemoryBus } from "../../src/core/serving/fisk/testing/memory-bus.ts";
import type { FrameEvent } from "../../src/core/serving/mcp/recording-transport.ts";
import { natsFrame, recordingNatsPort } from "./nats-frame-port.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const settle = () => new Promise<void>((r) => setTimeout(r, 0));

describe("recordingNatsPort", () => {
  it("records what arrives before the handler sees it, and what is sent, with subject and headers", async () => {
    const bus = new MemoryBus();
    const frames: FrameEvent[] = [];
    const port = recordingNatsPort(bus.port(), (f) => frames.push(f));
    const handled: string[] = [];
    port.subscribe("agent.tool", (msg) => {
      handled.push(`handled after ${frames.length} frame(s)`);
      port.publish(msg.reply!, bytes('{"ok":true}'), { headers: { "Nats-Service-Error-Code": ["400"] } });
    });
    bus.publish("agent.tool", bytes('{"tool":"echo"}'), { reply: "_INBOX.1" });
    await settle();
    expect(handled).toEqual(["handled after 1 frame(s)"]);
    expect(frames).toEqual([
      { direction: "in", subject: "agent.tool", reply: "_INBOX.1", text: '{"tool":"echo"}' },
      { direction: "out", subject: "_INBOX.1", headers: { "Nats-Service-Error-Code": ["400"] }, text: '{"ok":true}' },
    ]);
    expect(port.server).toBe("memory");
    const reply = await port.request("agent.tool", bytes("{}"), { timeoutMs: 100 });
    expect(new TextDecoder().decode(reply.data)).toBe('{"ok":true}');
    expect(frames.slice(2).map((f) => [f.direction, f.text])).toEqual([
      ["out", "{}"],
      ["in", "{}"],
      ["out", '{"ok":true}'],
      ["in", '{"ok":true}'],
    ]);
  });

  it("records nothing for a publish that fails", () => {
    const frames: FrameEvent[] = [];
    const broken = { ...new MemoryBus().port(), publish: () => { throw new Error("closed"); } };
    const port = recordingNatsPort(broken, (f) => frames.push(f));
    expect(() => port.publish("a", bytes("x"))).toThrow("closed");
    expect(frames).toEqual([]);
  });
});

describe("natsFrame", () => {
  it("redacts every conversation_token value, in the body and in headers", () => {
    const body = '{"protocol":"x","conversation_token":"s3cr3t","nested":{"conversation_token" : "t2\\"x"},"empty":{"conversation_token":""}}';
    const frame = natsFrame("in", "s", bytes(body), { "X-Debug": ['{"conversation_token":"h1"}'] });
    expect(frame.text).toBe('{"protocol":"x","conversation_token":"•••","nested":{"conversation_token" : "•••"},"empty":{"conversation_token":""}}');
    expect(frame.text).not.toContain("s3cr3t");
    expect(frame.headers).toEqual({ "X-Debug": ['{"conversation_token":"•••"}'] });
  });

  it("shows bytes that are not UTF-8 with replacement characters, and an empty body as empty text", () => {
    expect(natsFrame("out", "s", new Uint8Array([0x61, 0xff, 0x62]), undefined).text).toBe("a\uFFFDb");
    expect(natsFrame("out", "s", new Uint8Array(0), {})).toEqual({ direction: "out", subject: "s", text: "" });
  });
});
