import { describe, expect, it } from "vitest";
import { isKeepalive, progressOf, shortProtocol, timelineRow } from "./timeline.ts";
import { entry } from "./test-fakes.ts";

describe("reply-set timeline", () => {
  it("names each disposition: ack, keepalive, terminal, dropped, refusal", () => {
    expect(timelineRow(entry("ack", { sequence: 1, accepted: true }, "ack", 3.24))).toMatchObject({ at: "3.2 ms", sequence: "1", disposition: "ack", what: "ack" });
    expect(timelineRow(entry("ack", { sequence: 1, accepted: false }, "ack")).disposition).toBe("ack (refused)");
    const keepalive = entry("event.status", { sequence: 2, block: { phase: "running-tool" } }, "event");
    expect(isKeepalive(keepalive)).toBe(true);
    expect(timelineRow(keepalive)).toMatchObject({ disposition: "keepalive", what: "event.status", tone: "muted" });
    expect(timelineRow(entry("event.status", { block: { iteration: 1 } }, "event")).disposition).toBe("event");
    expect(timelineRow(entry("elicit.request.confirm", {}, "event")).disposition).toBe("question");
    expect(timelineRow(entry("tool.reply", { sequence: 3 }, "terminal", 1234.56, true))).toMatchObject({ at: "1,234.6 ms", disposition: "terminal (final)" });
    const foreign = { ...entry("tool.reply", {}, "foreign"), note: 'belongs to request "other"' };
    expect(timelineRow(foreign)).toMatchObject({ disposition: "dropped: another request's", sequence: "—", note: 'belongs to request "other"' });
    const refusal = { at: 1, final: false, disposition: "refusal" as const, message: { subject: "_INBOX.a", data: new Uint8Array() }, note: "400: bad" };
    expect(timelineRow(refusal)).toMatchObject({ disposition: "refusal", what: "(empty body)", tone: "bad" });
    const status = { at: 1, final: false, disposition: "no-responders" as const, message: { subject: "x", data: new Uint8Array(), status: { code: 503, description: "" } } };
    expect(timelineRow(status).what).toBe("status 503");
  });

  it("names a status that carries the tool's progress, with its words as the note", () => {
    const progress = entry("event.status", { sequence: 3, block: { phase: "running-tool", progress: 2, total: 5, message: "2 of 5 s" } }, "event");
    expect(timelineRow(progress)).toMatchObject({ disposition: "progress", tone: "ok", note: "2 of 5 s" });
    expect(progressOf(entry("event.status", { block: { phase: "running-tool", progress: 1, total: 3 } }, "event"))).toBe("1 of 3");
    expect(progressOf(entry("event.status", { block: { phase: "running-tool" } }, "event"))).toBeNull();
    expect(progressOf(entry("event.text", { block: { progress: 1 } }, "event"))).toBeNull();
  });

  it("strips the namespace only from fisk-ai ids", () => {
    expect(shortProtocol("io.choria.fisk-ai.v1.event.text")).toBe("event.text");
    expect(shortProtocol("other.v1.thing")).toBe("other.v1.thing");
    expect(shortProtocol(undefined)).toBe("");
  });
});
