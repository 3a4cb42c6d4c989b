import { describe, expect, it } from "vitest";
import { parseSavedConnection, toSavedConnection } from "./saved-connection.ts";

describe("saved NATS connections", () => {
  it("saves the user name but never a secret", () => {
    expect(toSavedConnection(" ws://h:1 ", "userpass", "console")).toEqual({
      protocol: "nats",
      servers: "ws://h:1",
      auth: { mode: "userpass", user: "console" },
    });
    expect(toSavedConnection("ws://h:1", "token", "ignored")).toEqual({ protocol: "nats", servers: "ws://h:1", auth: { mode: "token" } });
  });

  it("round-trips through parse", () => {
    const saved = toSavedConnection("wss://nats.example:443", "userpass", "u");
    expect(parseSavedConnection(JSON.parse(JSON.stringify(saved)))).toEqual({ ok: true, connection: saved });
  });

  it.each(["nkey", "creds"] as const)("saves the %s mode but never a secret", (mode) => {
    const saved = toSavedConnection("ws://h:1", mode, "someone");
    expect(saved).toEqual({ protocol: "nats", servers: "ws://h:1", auth: { mode } });
    expect(parseSavedConnection(JSON.parse(JSON.stringify(saved)))).toEqual({ ok: true, connection: saved });
  });

  it.each([
    [null, /not an object/],
    [[], /not an object/],
    [{ protocol: "mcp", servers: "x", auth: { mode: "none" } }, /not a NATS connection/],
    [{ protocol: "nats", servers: "", auth: { mode: "none" } }, /servers/],
    [{ protocol: "nats", servers: "ws://h", auth: null }, /auth must be an object/],
    [{ protocol: "nats", servers: "ws://h", auth: { mode: "kerberos" } }, /unknown auth mode "kerberos"/],
    [{ protocol: "nats", servers: "ws://h", auth: { mode: "userpass", user: 7 } }, /auth.user/],
  ])("refuses %j", (data, message) => {
    const r = parseSavedConnection(data);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(message);
  });
});
