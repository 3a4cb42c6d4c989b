import { describe, expect, it } from "vitest";
import { authProblem, classifyRequestError, connectOptions, describeConnectError, type NatsLibrary } from "./connection-adapter.ts";
import { NatsConnectError } from "./port.ts";
import { subjectProblem } from "./nats-session.ts";

function named(name: string, message: string, cause?: Error): Error {
  const e = new Error(message, cause ? { cause } : undefined);
  e.name = name;
  return e;
}

describe("classifyRequestError", () => {
  it.each([
    [named("RequestError", "no responders: 'x'", named("NoResponders", "no responders")), "no-responders"],
    [named("TimeoutError", "timeout"), "timeout"],
    [named("RequestError", "failed", named("TimeoutError", "timeout")), "timeout"],
    [named("PermissionViolationError", "Permissions Violation for Publish"), "permission"],
    [named("ClosedConnectionError", "closed connection"), "closed"],
    [new Error("something else"), "other"],
  ] as const)("maps %s to %s", (err, kind) => {
    const r = classifyRequestError(err);
    expect(r.kind).toBe(kind);
    expect(r.message).toBe(err.message);
  });

  it("survives non-Error throwables", () => {
    expect(classifyRequestError("boom").kind).toBe("other");
  });
});

/** A library whose authenticators record what they were given. */
const seen: { nkey?: string; creds?: string } = {};
const lib: NatsLibrary = {
  headers: () => {
    throw new Error("not used");
  },
  nkeyAuthenticator: (seed) => ((seen.nkey = new TextDecoder().decode(seed)), "nkey-auth"),
  credsAuthenticator: (creds) => ((seen.creds = new TextDecoder().decode(creds)), "creds-auth"),
};
const SEED = `SU${"A".repeat(56)}`;
const CREDS = "-----BEGIN NATS USER JWT-----\neyJ0\n------END NATS USER JWT------\n\n-----BEGIN USER NKEY SEED-----\nSUAB\n------END USER NKEY SEED------\n";

describe("connect options and errors", () => {
  it("passes user and password or token, never both unasked", () => {
    expect(connectOptions({ servers: "ws://h:1", auth: { user: "u", pass: "p" } }, lib)).toMatchObject({ user: "u", pass: "p" });
    const t = connectOptions({ servers: "ws://h:1", auth: { token: "t" } }, lib);
    expect(t).toMatchObject({ token: "t" });
    expect(t).not.toHaveProperty("user");
    expect(connectOptions({ servers: "ws://h:1" }, lib)).toEqual({ servers: ["ws://h:1"], name: "patchbay", timeout: 5000, maxReconnectAttempts: -1, reconnectTimeWait: 1000 });
    // A cluster's nodes, comma-separated, are several servers to the library, not one odd URL.
    expect(connectOptions({ servers: "nats://a:1, nats://b:2,nats://c:3", reconnectWaitMs: 250, maxReconnectAttempts: 5 }, lib)).toMatchObject({ servers: ["nats://a:1", "nats://b:2", "nats://c:3"], maxReconnectAttempts: 5, reconnectTimeWait: 250 });
  });

  it("signs with an NKey seed or a creds file through the library's authenticators, trimmed", () => {
    expect(connectOptions({ servers: "ws://h:1", auth: { nkeySeed: ` ${SEED}\n` } }, lib)).toMatchObject({ authenticator: "nkey-auth" });
    expect(seen.nkey).toBe(SEED);
    expect(connectOptions({ servers: "ws://h:1", auth: { creds: CREDS } }, lib)).toMatchObject({ authenticator: "creds-auth" });
    expect(seen.creds).toBe(CREDS.trim());
  });

  it.each([
    [{ nkeySeed: "UAQWR5WZ325STDWLPDMGQERT5GYBFTKQKH6ICP6CX5LJOFDFZKP5WAOV" }, /not a user seed/],
    [{ nkeySeed: "SUshort" }, /not a user seed/],
    [{ creds: "just some text" }, /not a \.creds file/],
  ])("refuses bad secrets before connecting, without repeating them: %j", (auth, reason) => {
    expect(authProblem(auth)).toMatch(reason);
    expect(() => connectOptions({ servers: "ws://h:1", auth }, lib)).toThrow(NatsConnectError);
    const message = (() => {
      try {
        connectOptions({ servers: "ws://h:1", auth }, lib);
        return "";
      } catch (err) {
        return (err as Error).message;
      }
    })();
    for (const secret of Object.values(auth)) expect(message).not.toContain(secret);
  });

  it("describes a connect failure with the whole cause chain", () => {
    const e = describeConnectError(named("ConnectionError", "connection refused", new Error("ECONNREFUSED")), "ws://h:1");
    expect(e.message).toBe("could not connect to ws://h:1: connection refused: ECONNREFUSED");
  });

  it("never repeats credentials written in a server URL, and hands the library URLs without them", () => {
    const e = describeConnectError(named("ConnectionError", "Authorization Violation"), "nats://agent:pw-123@h:4222");
    expect(e.message).toBe("could not connect to nats://***@h:4222: Authorization Violation");
    const settings = connectOptions({ servers: "nats://agent:pw-123@h:4222" }, {} as NatsLibrary);
    expect(settings).toMatchObject({ servers: ["nats://h:4222"], user: "agent", pass: "pw-123" });
  });
});

describe("subjectProblem", () => {
  it.each(["a", "a.b.c", "choria.fisk-ai.tool.x", "_INBOX.abc"])("accepts %s", (s) => {
    expect(subjectProblem(s)).toBeNull();
  });
  it.each(["", "a b", "a.*", "a.>", ".a", "a.", "a..b", "a\tb"])("refuses %j", (s) => {
    expect(subjectProblem(s)).toMatch(/subject|wildcard|token/);
  });
});
