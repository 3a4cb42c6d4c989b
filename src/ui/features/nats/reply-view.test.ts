import { describe, expect, it } from "vitest";
import { replyBody, summarize } from "./reply-view.ts";

const enc = new TextEncoder();

describe("reply view", () => {
  it("names every outcome in plain words", () => {
    const msg = { subject: "_INBOX.x", data: enc.encode("{}") };
    expect(summarize({ kind: "reply", message: msg, rttMs: 1 })).toMatchObject({ tone: "ok", title: "Reply", detail: "2 bytes" });
    expect(summarize({ kind: "no-responders", rttMs: 1 }).title).toBe("No responders (503)");
    expect(summarize({ kind: "timeout", rttMs: 1, timeoutMs: 300 }).detail).toBe("No reply within 300 ms.");
    expect(summarize({ kind: "error", rttMs: 0, message: "not connected" })).toMatchObject({ tone: "bad", detail: "not connected" });
    expect(
      summarize({ kind: "reply", message: { ...msg, status: { code: 408, description: "Request Timeout" } }, rttMs: 1 }).title,
    ).toBe("Status 408");
  });

  it("formats RTT with 0.1 ms resolution and grouped thousands", () => {
    expect(summarize({ kind: "no-responders", rttMs: 1.26 }).rtt).toBe("1.3 ms");
    expect(summarize({ kind: "no-responders", rttMs: 0 }).rtt).toBe("0.0 ms");
    expect(summarize({ kind: "no-responders", rttMs: 1234.5 }).rtt).toBe("1,234.5 ms");
  });

  it("shows JSON pretty, text as is, binary as hex, empty as empty", () => {
    expect(replyBody({ subject: "s", data: enc.encode('{"a":[1]}') })).toEqual({
      kind: "json",
      body: '{\n  "a": [\n    1\n  ]\n}',
      truncated: null,
    });
    expect(replyBody({ subject: "s", data: enc.encode("plain") })).toEqual({ kind: "text", body: "plain", truncated: null });
    expect(replyBody({ subject: "s", data: new Uint8Array([0xff, 0xfe]) }).kind).toBe("hex");
    expect(replyBody({ subject: "s", data: new Uint8Array() }).kind).toBe("empty");
  });
});
