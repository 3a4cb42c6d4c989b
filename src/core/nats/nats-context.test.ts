import { describe, expect, it } from "vitest";
import { parseNatsContext } from "./nats-context.ts";

describe("parseNatsContext", () => {
  it("takes a WebSocket URL and user and password", () => {
    const r = parseNatsContext("dev", JSON.stringify({ description: "Dev", url: "nats://a:4222, ws://a:8080", user: "u", password: "p" }));
    expect(r).toEqual({
      ok: true,
      context: { name: "dev", description: "Dev", url: "nats://a:4222, ws://a:8080", webSocketUrl: "ws://a:8080", auth: { mode: "userpass", user: "u", password: "p" }, notes: [] },
    });
  });

  it("says a TCP-only URL needs a WebSocket address, and reads a user without password as a token", () => {
    const r = parseNatsContext("prod", JSON.stringify({ url: "nats://prod:4222", user: "s3cr3t-token" }));
    if (!r.ok) throw new Error(r.error);
    expect(r.context.webSocketUrl).toBeUndefined();
    expect(r.context.auth).toEqual({ mode: "token", token: "s3cr3t-token" });
    expect(r.context.notes[0]).toMatch(/not a WebSocket URL/);
  });

  it("names the creds or nkey file to pick, creds first", () => {
    const both = parseNatsContext("c", JSON.stringify({ url: "wss://x", creds: "/home/me/u.creds", nkey: "/home/me/u.nk" }));
    if (!both.ok) throw new Error(both.error);
    expect(both.context.auth).toEqual({ mode: "creds", file: "/home/me/u.creds" });
    const nkey = parseNatsContext("n", JSON.stringify({ url: "wss://x", nkey: "/home/me/u.nk" }));
    if (!nkey.ok) throw new Error(nkey.error);
    expect(nkey.context.auth.mode).toBe("nkey");
    expect(nkey.context.notes.join(" ")).toContain("/home/me/u.nk");
  });

  it("lists settings a browser cannot use, once each, with the reason", () => {
    const r = parseNatsContext("t", JSON.stringify({ url: "wss://x", cert: "c.pem", key: "k.pem", ca: "ca.pem", socks_proxy: "s:1", tls_first: true, color_scheme: "blue" }));
    if (!r.ok) throw new Error(r.error);
    expect(r.context.notes).toHaveLength(5);
    expect(r.context.notes.join(" ")).toMatch(/certificates are chosen by the browser/);
  });

  it.each([
    ["{not json", /not JSON \(line 1, column 2/],
    ["[]", /JSON object/],
    ['"url"', /JSON object/],
  ])("refuses %j with a clear reason", (input, reason) => {
    const r = parseNatsContext("x", input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(reason);
  });
});
