import { describe, expect, it } from "vitest";
import { Base64Error, decodeBase64, encodeBase64 } from "./base64.ts";

// The web-standard btoa/atob work on "binary strings"; they serve as an independent oracle.
function oracleEncode(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

function pseudoRandomBytes(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

describe("encodeBase64", () => {
  it("matches RFC 4648 test vectors", () => {
    const vectors: [string, string][] = [
      ["", ""],
      ["f", "Zg=="],
      ["fo", "Zm8="],
      ["foo", "Zm9v"],
      ["foob", "Zm9vYg=="],
      ["fooba", "Zm9vYmE="],
      ["foobar", "Zm9vYmFy"],
    ];
    for (const [plain, encoded] of vectors) {
      expect(encodeBase64(new TextEncoder().encode(plain))).toBe(encoded);
      expect(new TextDecoder().decode(decodeBase64(encoded))).toBe(plain);
    }
  });

  it("agrees with btoa on every length from 0 to 70 and uses + and /", () => {
    for (let n = 0; n <= 70; n++) {
      const bytes = pseudoRandomBytes(n, n + 1);
      expect(encodeBase64(bytes)).toBe(oracleEncode(bytes));
    }
    expect(encodeBase64(new Uint8Array([0xfb, 0xff, 0xbf]))).toBe("+/+/");
  });

  it("round-trips a large buffer exactly (beyond the string chunk size)", () => {
    const bytes = pseudoRandomBytes(300_001, 7);
    const text = encodeBase64(bytes);
    expect(text.length).toBe(400_004);
    const back = decodeBase64(text);
    expect(back.length).toBe(bytes.length);
    expect(back.findIndex((b, i) => b !== bytes[i])).toBe(-1);
    expect(text).toBe(oracleEncode(bytes));
  });
});

describe("decodeBase64 rejects non-canonical input with a reason", () => {
  const cases: [string, RegExp][] = [
    ["Zm9", /not a multiple of 4/],
    ["Zm9v\n", /not a multiple of 4/],
    ["Zm 9", /invalid base64 character " " at offset 2/],
    ["Zm-v", /invalid base64 character "-"/],
    ["Z===", /invalid base64 character "="/],
    ["Zg=a", /invalid base64 character "="/],
    ["====", /invalid base64 character "="/],
    ["Zh==", /non-zero bits/],
    ["Zm9=", /non-zero bits/],
    ["Zm9v\u00e9AAA", /invalid base64 character "é"/],
  ];
  for (const [input, reason] of cases) {
    it(JSON.stringify(input), () => {
      expect(() => decodeBase64(input)).toThrow(Base64Error);
      expect(() => decodeBase64(input)).toThrow(reason);
    });
  }
});
