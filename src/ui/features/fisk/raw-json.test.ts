import { describe, expect, it } from "vitest";
import { displayBody, displayText, scrub, secretsIn } from "./raw-json.ts";

const enc = new TextEncoder();

describe("raw JSON views", () => {
  it("never shows a conversation token, pretty-printed or not", () => {
    const text = '{"protocol":"io.choria.fisk-ai.v1.ack","conversation_token":"tok-123","accepted":true}';
    const shown = displayText(text);
    expect(shown).not.toContain("tok-123");
    expect(shown).toContain('"conversation_token": "•••"');
    expect(shown.split("\n").length).toBeGreaterThan(2);
    const broken = '{"conversation_token": "tok-123", "x": ';
    expect(displayText(broken)).not.toContain("tok-123");
  });

  it("says when a body is empty and shows non-JSON as it is", () => {
    expect(displayBody({ subject: "s", data: new Uint8Array() })).toBe("(empty body)");
    expect(displayBody({ subject: "s", data: enc.encode("plain words") })).toBe("plain words");
  });

  it("finds token values at any depth and scrubs them from derived text", () => {
    const secrets = secretsIn({ a: [{ conversation_token: "deep" }], conversation_token: "top", b: { conversation_token: "" } });
    expect(secrets.sort()).toEqual(["deep", "top"]);
    expect(scrub("value deep is not top", secrets)).toBe("value ••• is not •••");
  });
});
