import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomIds, silentLogger, systemClock } from "../../src/core/env/index.ts";
import { NatsSession, type NatsAuth } from "../../src/core/nats/index.ts";
import { tcpConnector } from "../../src/core/nats/node/tcp-connector.ts";
import { WireLog } from "../../src/core/wire/index.ts";
import { startNatsServer, type ManagedNats } from "../../server/nats/managed-nats.ts";

async function start(extraConfig: string): Promise<ManagedNats> {
  const r = await startNatsServer({ extraConfig });
  if (!r.ok) throw new Error(r.message);
  return r.server;
}

async function tryConnect(url: string, auth?: NatsAuth) {
  const clock = systemClock(performance, Date);
  const session = new NatsSession({
    connector: tcpConnector(),
    clock,
    ids: randomIds((b) => crypto.getRandomValues(b)),
    wireLog: new WireLog(clock, 10),
    logger: silentLogger,
  });
  await session.connect({ servers: url, timeoutMs: 3000, ...(auth ? { auth } : {}) });
  const snapshot = session.snapshot;
  await session.disconnect();
  return snapshot;
}

describe("NATS authentication against a real server", () => {
  let userPass: ManagedNats;
  let token: ManagedNats;

  beforeAll(async () => {
    [userPass, token] = await Promise.all([
      start(`authorization { users: [ { user: "console", password: "s3cret" } ] }`),
      start(`authorization { token: "tok-123" }`),
    ]);
  });

  afterAll(async () => {
    await Promise.all([userPass?.stop(), token?.stop()]);
  });

  it("connects with the right user and password", async () => {
    expect((await tryConnect(userPass.url, { user: "console", pass: "s3cret" })).state).toBe("connected");
  });

  it("fails clearly with a wrong password, without echoing it", async () => {
    const s = await tryConnect(userPass.url, { user: "console", pass: "wrong-pass-xyz" });
    expect(s.state).toBe("failed");
    expect(s.error).toMatch(/authorization/i);
    expect(s.error).not.toContain("wrong-pass-xyz");
  });

  it("fails without credentials when the server requires them", async () => {
    expect((await tryConnect(userPass.url)).state).toBe("failed");
  });

  it("connects with the right token and refuses a wrong one", async () => {
    expect((await tryConnect(token.url, { token: "tok-123" })).state).toBe("connected");
    const bad = await tryConnect(token.url, { token: "nope-456" });
    expect(bad.state).toBe("failed");
    expect(bad.error).not.toContain("nope-456");
  });
});
