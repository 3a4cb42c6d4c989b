import { createUser } from "@nats-io/nkeys";
import { startNatsServer, type ManagedNats } from "../../../server/nats/managed-nats.ts";
import { tcpConnector } from "../../../src/core/nats/node/tcp-connector.ts";
import type { NatsPort } from "../../../src/core/nats/port.ts";
import { expect, test } from "../fixtures.ts";
import { NatsPage } from "../pages/nats-page.ts";

/** A second real server that requires credentials, reached from the browser over WebSocket. */
test.describe("NATS authentication and timeouts from the browser", () => {
  let server: ManagedNats;
  let responder: NatsPort;
  const nkeyUser = createUser();

  test.beforeAll(async () => {
    const started = await startNatsServer({
      extraConfig: `authorization { users: [ { user: "console", password: "s3cret" }, { user: "agent", password: "agentpw" }, { nkey: "${nkeyUser.getPublicKey()}" } ] }`,
    });
    if (!started.ok) throw new Error(started.message);
    server = started.server;
    responder = await tcpConnector().connect({ servers: server.url, auth: { user: "agent", pass: "agentpw" } });
    responder.subscribe("auth.silent", () => {});
    responder.subscribe("auth.echo", (msg) => {
      if (msg.reply) responder.publish(msg.reply, msg.data);
    });
    await responder.flush();
  });

  test.afterAll(async () => {
    await responder?.close();
    await server?.stop();
  });

  async function openWithAuth(nats: NatsPage, url: string, pass: string): Promise<void> {
    await nats.open(url);
    await nats.serverUrl.fill(server.wsUrl);
    await nats.connection.getByLabel("Authentication").selectOption("userpass");
    await nats.connection.getByLabel("User", { exact: true }).fill("console");
    await nats.connection.getByLabel("Password", { exact: true }).fill(pass);
    await nats.connectButton.click();
  }

  test("user and password connect; a request is answered", async ({ page, app }) => {
    const nats = new NatsPage(page);
    await openWithAuth(nats, app.url, "s3cret");
    await expect(nats.state).toHaveText("connected");
    await nats.subject.fill("auth.echo");
    await nats.payload.waitReady();
    await nats.payload.replaceText('{"n": 1}');
    await nats.send.click();
    await expect(nats.replyTitle).toHaveText("Reply");
    await expect(nats.replyBody).toContainText('"n": 1');
  });

  test("an NKey seed signs the server's challenge; a request is answered", async ({ page, app }) => {
    const nats = new NatsPage(page);
    await nats.open(app.url);
    await nats.serverUrl.fill(server.wsUrl);
    await nats.connection.getByLabel("Authentication").selectOption("nkey");
    await nats.connection.getByLabel(/NKey user seed/).fill(new TextDecoder().decode(nkeyUser.getSeed()));
    await nats.connectButton.click();
    await expect(nats.state).toHaveText("connected");
    await nats.subject.fill("auth.echo");
    await nats.payload.waitReady();
    await nats.payload.replaceText('{"n": 2}');
    await nats.send.click();
    await expect(nats.replyBody).toContainText('"n": 2');
  });

  test("a public key in place of the seed is refused before connecting, without echoing it", async ({ page, app }) => {
    const nats = new NatsPage(page);
    await nats.open(app.url);
    await nats.serverUrl.fill(server.wsUrl);
    await nats.connection.getByLabel("Authentication").selectOption("nkey");
    await nats.connection.getByLabel(/NKey user seed/).fill(nkeyUser.getPublicKey());
    await nats.connectButton.click();
    await expect(nats.state).toHaveText("failed");
    await expect(nats.connection.getByRole("alert")).toContainText("not a user seed");
    await expect(nats.connection.getByRole("alert")).not.toContainText(nkeyUser.getPublicKey());
  });

  test("a wrong password fails with an authorization error and offers a retry", async ({ page, app }) => {
    const nats = new NatsPage(page);
    await openWithAuth(nats, app.url, "not-the-password");
    await expect(nats.state).toHaveText("failed");
    await expect(nats.connection.getByRole("alert")).toContainText(/authorization/i);
    await expect(nats.connection.getByRole("alert")).not.toContainText("not-the-password");
    await expect(nats.connectButton).toHaveText("Retry");
  });

  test("a responder that never answers ends in a timeout after the chosen time", async ({ page, app }) => {
    const nats = new NatsPage(page);
    await openWithAuth(nats, app.url, "s3cret");
    await expect(nats.state).toHaveText("connected");
    await nats.subject.fill("auth.silent");
    await page.getByLabel("Timeout (ms)").fill("400");
    await nats.send.click();
    await expect(nats.replyTitle).toHaveText("Timeout");
    await expect(page.getByTestId("reply-summary")).toContainText("No reply within 400 ms.");
  });
});
