import { describe, expect, it } from "vitest";
import { classifyRequestError, connectOptions, describeConnectError } from "./connection-adapter.ts";
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

describe("connect options and errors", () => {
  it("passes user and password or token, never both unasked", () => {
    expect(connectOptions({ servers: "ws://h:1", auth: { user: "u", pass: "p" } })).toMatchObject({ user: "u", pass: "p" });
    const t = connectOptions({ servers: "ws://h:1", auth: { token: "t" } });
    expect(t).toMatchObject({ token: "t" });
    expect(t).not.toHaveProperty("user");
    expect(connectOptions({ servers: "ws://h:1" })).toEqual({ servers: "ws://h:1", name: "patchbay", timeout: 5000 });
  });

  it("describes a connect failure with the whole cause chain", () => {
    const e = describeConnectError(named("ConnectionError", "connection refused", new Error("ECONNREFUSED")), "ws://h:1");
    expect(e.message).toBe("could not connect to ws://h:1: connection refused: ECONNREFUSED");
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
