import { describe, expect, it } from "vitest";
import { manualClock } from "../../env/index.ts";
import { WireLog } from "../../wire/index.ts";
import { redactConversationTokens, redactFrameTokens, redactToken, REDACTED } from "./redact.ts";

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const ACK = '{"protocol":"io.choria.fisk-ai.v1.ack","accepted":true,"conversation_token":"2Q3xTNJFoBinF5aJXVuLkSIc47WQ"}';

describe("conversation token redaction", () => {
  it("replaces a known token everywhere, and every token member without knowing it", () => {
    expect(redactToken("a TOK b TOK", "TOK")).toBe(`a ${REDACTED} b ${REDACTED}`);
    expect(redactConversationTokens(ACK)).toBe(`{"protocol":"io.choria.fisk-ai.v1.ack","accepted":true,"conversation_token":"${REDACTED}"}`);
    expect(redactConversationTokens('{"conversation_token":""}')).toBe('{"conversation_token":""}');
  });

  it("keeps the token out of the wire log, with a note, and leaves other frames byte for byte", () => {
    const log = new WireLog(manualClock(), 10, { redact: redactFrameTokens });
    const other = bytes('{"protocol":"io.choria.fisk-ai.v1.tool.reply","output":"conversation"}');
    log.record({ channel: "nats", direction: "in", target: "_INBOX.a", bytes: bytes(ACK) });
    log.record({ channel: "nats", direction: "in", target: "_INBOX.a", bytes: other });
    log.record({ channel: "nats", direction: "in", target: "_INBOX.a", bytes: new Uint8Array([0xff, 0xfe, 0x00]) });
    const [ack, reply, binary] = log.entries();
    expect(text(ack!.bytes)).not.toContain("2Q3xTNJFoBinF5aJXVuLkSIc47WQ");
    expect(ack!.note).toBe("conversation_token redacted");
    expect(reply!.bytes).toBe(other);
    expect(reply!.note).toBeUndefined();
    expect([...binary!.bytes]).toEqual([0xff, 0xfe, 0x00]);
  });
});
