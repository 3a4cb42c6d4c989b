import { describe, expect, it } from "vitest";
import type { Exchange } from "../../../core/oauth/index.ts";
import { exchangeText, SHOWN_BODY_CHARS } from "./exchange-text.ts";

const token: Exchange = {
  at: 0,
  request: { method: "POST", url: "https://as.example/token", headers: { "content-type": "application/x-www-form-urlencoded", authorization: "Basic YzpzZWNyZXQ=" }, body: "grant_type=authorization_code&code=c0de&code_verifier=vvvv" },
  result: { ok: true, durationMs: 3, response: { status: 200, statusText: "OK", headers: { "content-type": "application/json" }, body: '{"access_token":"AT-123","token_type":"Bearer"}' } },
};

describe("exchangeText", () => {
  it("shows the raw request and response with secrets masked", () => {
    const text = exchangeText(token, false);
    expect(text.summary).toBe("POST as.example/token → HTTP 200 OK");
    expect(text.request).toBe(
      "POST https://as.example/token\ncontent-type: application/x-www-form-urlencoded\nauthorization: Basic •••• (12 chars)\n\ngrant_type=authorization_code&code=•••• (4 chars)&code_verifier=•••• (4 chars)",
    );
    expect(text.response).toBe('HTTP 200 OK\ncontent-type: application/json\n\n{"access_token":"•••• (6 chars)","token_type":"Bearer"}');
  });

  it("shows everything when revealed", () => {
    const text = exchangeText(token, true);
    expect(text.request).toContain("code=c0de");
    expect(text.response).toContain("AT-123");
  });

  it("names a failure, with the status and headers that arrived", () => {
    const text = exchangeText({ ...token, result: { ok: false, step: "size", message: "the answer from as.example is over 1024 bytes", status: 200, headers: { "set-cookie": "s=1" } } }, false);
    expect(text.failed).toBe(true);
    expect(text.response).toBe("HTTP 200\nset-cookie: •••• (3 chars)\n\n(size: the answer from as.example is over 1024 bytes)");
  });

  it("cuts a long body for display and says how much is left", () => {
    const long = { ...token, result: { ok: true as const, durationMs: 1, response: { status: 200, statusText: "", headers: {}, body: "x".repeat(SHOWN_BODY_CHARS + 10) } } };
    expect(exchangeText(long, false).response).toMatch(/… \(10 more characters not shown\)$/);
  });
});
