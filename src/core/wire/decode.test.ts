import { describe, expect, it } from "vitest";
import { DECODE_LIMIT_BYTES, decodeFrame, exactUtf8Text, utf8Text } from "./decode.ts";

const enc = new TextEncoder();

describe("decodeFrame", () => {
  it("explains each reason a payload has no JSON view", () => {
    expect(decodeFrame(new Uint8Array())).toEqual({ jsonError: "empty payload" });
    expect(decodeFrame(new Uint8Array([0xc3, 0x28])).jsonError).toBe("not valid UTF-8");
    expect(decodeFrame(enc.encode("{oops")).jsonError).toMatch(/^not JSON: /);
    const big = new Uint8Array(DECODE_LIMIT_BYTES + 1).fill(0x20);
    expect(decodeFrame(big).jsonError).toMatch(/larger than the 4194304-byte decode limit/);
  });

  it("parses JSON values of any shape, deriving method and protocol only from objects", () => {
    expect(decodeFrame(enc.encode("[1,2]"))).toEqual({ json: [1, 2] });
    expect(decodeFrame(enc.encode('"s"'))).toEqual({ json: "s" });
    expect(decodeFrame(enc.encode('{"method":7,"type":"io.nats.micro.v1.info_response"}'))).toEqual({
      json: { method: 7, type: "io.nats.micro.v1.info_response" },
      protocolId: "io.nats.micro.v1.info_response",
    });
  });

  it("names a fisk-ai message's sender and the instance it came from, when the message says", () => {
    const reply = { protocol: "io.choria.fisk-ai.v1.ack", sender: { name: "orders", instance: "east-2" } };
    expect(decodeFrame(enc.encode(JSON.stringify(reply))).sender).toEqual({ name: "orders", instance: "east-2" });
    expect(decodeFrame(enc.encode('{"protocol":"io.choria.fisk-ai.v1.ack","sender":{"name":"orders"}}')).sender).toEqual({ name: "orders" });
    expect(decodeFrame(enc.encode('{"sender":{"name":"x","instance":"y"}}')).sender).toBeUndefined();
    expect(decodeFrame(enc.encode('{"protocol":"p","sender":{"name":7,"instance":"y"}}')).sender).toBeUndefined();
  });

  it("survives hostile nesting without throwing", () => {
    const deep = "[".repeat(200_000) + "]".repeat(200_000);
    expect(() => decodeFrame(enc.encode(deep))).not.toThrow();
  });
});

describe("utf8Text", () => {
  it("decodes valid UTF-8 including astral characters and refuses invalid bytes", () => {
    expect(utf8Text(enc.encode("héllo 🚀"))).toBe("héllo 🚀");
    expect(utf8Text(new Uint8Array([0xed, 0xa0, 0x80]))).toBeNull();
  });
});

describe("exactUtf8Text", () => {
  it("keeps a leading byte order mark where utf8Text drops it, and refuses invalid bytes", () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, 0x41]);
    expect(exactUtf8Text(bom)).toBe("\ufeffA");
    expect(utf8Text(bom)).toBe("A");
    expect(new TextEncoder().encode(exactUtf8Text(bom) ?? "")).toEqual(bom);
    expect(exactUtf8Text(new Uint8Array([0xc3, 0x28]))).toBeNull();
  });
});
