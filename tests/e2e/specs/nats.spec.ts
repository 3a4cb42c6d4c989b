import { tcpConnector } from "../../../src/core/nats/node/tcp-connector.ts";
import type { NatsPort } from "../../../src/core/nats/port.ts";
import { expect, test } from "../fixtures.ts";
import { NatsPage } from "../pages/nats-page.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

test.describe("NATS request from the browser over WebSocket", () => {
  let responder: NatsPort;
  const subject = `e2e.${Date.now().toString(36)}.echo`;

  test.beforeAll(async ({ status }) => {
    expect(status.nats.mode, "the backend should have started its own nats-server").toBe("managed");
    responder = await tcpConnector().connect({ servers: status.nats.url ?? "", name: "e2e-responder" });
    responder.subscribe(subject, (msg) => {
      if (!msg.reply) return;
      const body = JSON.parse(dec.decode(msg.data)) as unknown;
      responder.publish(msg.reply, enc.encode(JSON.stringify({ got: body, trace: msg.headers?.["X-Trace"] ?? [] })), {
        headers: { "X-Responder": ["e2e"] },
      });
    });
    await responder.flush();
  });

  test.afterAll(async () => {
    await responder?.close();
  });

  test("request with headers gets the reply, its headers and RTT; both frames reach Traffic", async ({ page, app, status }) => {
    const nats = new NatsPage(page);
    await nats.open(app.url);
    await expect(nats.serverUrl).toHaveValue(status.nats.wsUrl ?? "");
    await nats.connect();
    await expect(nats.state).toHaveText("connected");
    await expect(page.getByTestId("status-nats")).toContainText("NATS: connected");

    await nats.subject.fill(subject);
    await nats.setHeader(1, "X-Trace", "t-42");
    await nats.payload.waitReady();
    await nats.payload.replaceText('{"hello": "world"}');
    await nats.send.click();

    await expect(nats.replyTitle).toHaveText("Reply");
    await expect(nats.replyRtt).toHaveText(/^\d+\.\d ms$/);
    await expect(nats.replyHeaders).toContainText("X-Responder");
    await expect(nats.replyHeaders).toContainText("e2e");
    const body = JSON.parse((await nats.replyBody.textContent()) ?? "null") as unknown;
    expect(body).toEqual({ got: { hello: "world" }, trace: ["t-42"] });

    await expect(page.getByTestId("status-frames")).toContainText("2 frames");
    await page.getByRole("tab", { name: "Traffic" }).click();
    await expect(page.getByText(subject).first()).toBeVisible();
  });

  test("a subject nobody serves reports no responders (503)", async ({ page, app }) => {
    const nats = new NatsPage(page);
    await nats.open(app.url);
    await nats.connect();
    await expect(nats.state).toHaveText("connected");
    await nats.subject.fill(`${subject}.nobody`);
    await nats.subject.press("ControlOrMeta+Enter");
    await expect(nats.replyTitle).toHaveText("No responders (503)");
  });

  test("an unreachable server gives a clear failure and a retry, not a hang", async ({ page, app }) => {
    const nats = new NatsPage(page);
    await nats.open(app.url);
    await nats.connect("ws://127.0.0.1:1");
    await expect(nats.state).toHaveText("failed");
    await expect(nats.connection.getByRole("alert")).toContainText("could not connect to ws://127.0.0.1:1");
    await expect(nats.connectButton).toHaveText("Retry");
    // Said where the requests are too, not only beside the form.
    await expect(page.locator("#nats-tabpanel").getByRole("alert", { name: "NATS connection failure" })).toContainText("could not connect to ws://127.0.0.1:1");
    await expect(page.getByTestId("status-nats")).toContainText("NATS: failed");
  });

  test("a URL that is not WebSocket is refused before connecting", async ({ page, app }) => {
    const nats = new NatsPage(page);
    await nats.open(app.url);
    await nats.connect("nats://127.0.0.1:4222");
    await expect(nats.connection.getByRole("alert")).toContainText("must start with ws:// or wss://");
    await expect(nats.state).toHaveText("idle");
  });
});
