import { createUser } from "@nats-io/nkeys";
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
  let nkey: ManagedNats;
  const user = createUser();
  const seed = new TextDecoder().decode(user.getSeed());
  const stranger = new TextDecoder().decode(createUser().getSeed());

  beforeAll(async () => {
    [userPass, token, nkey] = await Promise.all([
      start(`authorization { users: [ { user: "console", password: "s3cret" } ] }`),
      start(`authorization { token: "tok-123" }`),
      start(`authorization { users: [ { nkey: "${user.getPublicKey()}" } ] }`),
    ]);
  });

  afterAll(async () => {
    await Promise.all([userPass?.stop(), token?.stop(), nkey?.stop()]);
  });

  it("connects with an NKey seed that signs the server's nonce", async () => {
    expect((await tryConnect(nkey.url, { nkeySeed: seed })).state).toBe("connected");
  });

  it("refuses another user's seed, and a public key in place of the seed, without echoing either", async () => {
    const wrong = await tryConnect(nkey.url, { nkeySeed: stranger });
    expect(wrong.state).toBe("failed");
    expect(wrong.error).toMatch(/authorization/i);
    expect(wrong.error).not.toContain(stranger);
    const publicKey = await tryConnect(nkey.url, { nkeySeed: user.getPublicKey() });
    expect(publicKey.state).toBe("failed");
    expect(publicKey.error).toMatch(/not a user seed/);
    expect(publicKey.error).not.toContain(user.getPublicKey());
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
