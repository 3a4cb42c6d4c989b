import { describe, expect, it } from "vitest";
import { formatRtt, payloadView, summarize } from "./reply-view.ts";

const enc = new TextEncoder();

describe("reply view", () => {
  it("formats RTT with 0.1 ms resolution", () => {
    expect(formatRtt(1.26)).toBe("1.3 ms");
    expect(formatRtt(0)).toBe("0.0 ms");
  });

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

  it("shows JSON pretty, text as is, binary as a note, empty as empty", () => {
    expect(payloadView({ subject: "s", data: enc.encode('{"a":[1]}') })).toEqual({ kind: "json", text: '{\n  "a": [\n    1\n  ]\n}' });
    expect(payloadView({ subject: "s", data: enc.encode("plain") })).toEqual({ kind: "text", text: "plain" });
    expect(payloadView({ subject: "s", data: new Uint8Array([0xff, 0xfe]) }).kind).toBe("binary");
    expect(payloadView({ subject: "s", data: new Uint8Array() }).kind).toBe("empty");
  });
});
