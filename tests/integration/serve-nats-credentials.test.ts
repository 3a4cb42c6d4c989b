import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNatsServer, type ManagedNats } from "../../server/nats/managed-nats.ts";
import { redactUrl } from "../../server/nats/nats-urls.ts";
import { send, startTestBackend, type TestBackend } from "../helpers/http-client.ts";

/** An external NATS server that requires credentials given in its URL, as NATS_URL allows. */
describe("serving over an external NATS server that needs credentials", () => {
  let server: ManagedNats;
  let t: TestBackend;
  let withCredentials: string;

  beforeAll(async () => {
    const started = await startNatsServer({ extraConfig: `authorization { users: [ { user: "agent", password: "s3cret-pw" } ] }` });
    if (!started.ok) throw new Error(started.message);
    server = started.server;
    withCredentials = server.url.replace("nats://", "nats://agent:s3cret-pw@");
    t = await startTestBackend({ nats: { mode: "external", url: redactUrl(withCredentials) }, natsConnectUrl: withCredentials });
  });
  afterAll(async () => {
    await t?.close();
    await server?.stop();
  });

  it("the agent connects with the credentials while the status and the log show only the redacted URL", async () => {
    const api = (method: string, path: string, body?: unknown) =>
      send({ port: t.port, method, path, headers: { ...t.auth, ...(body === undefined ? {} : { "content-type": "application/json" }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const started = await api("POST", "/api/serve/nats/start", {});
    expect(started.status, started.text).toBe(200);
    expect(started.json()).toMatchObject({ serving: true });
    const status = (await api("GET", "/api/status")).text;
    expect(status).toContain("***@");
    expect(status).not.toContain("s3cret-pw");
    expect(JSON.stringify((await api("GET", "/api/serve/nats/status")).json())).not.toContain("s3cret-pw");
    expect((await api("POST", "/api/serve/nats/stop")).status).toBe(200);
    expect(t.logs.join("\n")).not.toContain("s3cret-pw");
  });
});
