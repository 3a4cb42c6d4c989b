import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startLegacyAgent, startSdkAgent, type LegacyAgent, type SdkAgent } from "../../helpers/a2a-peers/index.ts";
import { expect, test } from "../fixtures.ts";
import { A2aPage } from "../pages/a2a-page.ts";

/**
 * Every frame of an exchange judged by the validation engine, by the dialect and binding used:
 * the request body sent and each answer frame, with a one-line summary. Real peers' frames are
 * valid; a peer that sends a wrong state, and a malformed raw request, are shown invalid at the
 * pointer of their first problem.
 */

/** A v0.2 agent that streams a status-update whose state no dialect has. */
async function startWrongStatePeer(): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  let base = "";
  const server: Server = createServer((req, res) => {
    if (req.method === "GET" && req.url === "/.well-known/agent.json") {
      const card = { name: "wrong state", description: "sends a state no dialect has", url: `${base}/`, version: "1", capabilities: { streaming: true }, defaultInputModes: ["text"], defaultOutputModes: ["text"], skills: [] };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(card));
      return;
    }
    if (req.method !== "POST") return void res.writeHead(404).end();
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      const id = (JSON.parse(body) as { id: unknown }).id;
      const events = [
        { kind: "task", id: "t1", contextId: "c1", status: { state: "submitted" } },
        { kind: "status-update", taskId: "t1", contextId: "c1", status: { state: "done" }, final: false },
        { kind: "status-update", taskId: "t1", contextId: "c1", status: { state: "completed" }, final: true },
      ];
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(events.map((result) => `data: ${JSON.stringify({ jsonrpc: "2.0", id, result })}\n\n`).join(""));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { baseUrl: base, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

test.describe("A2A frame verdicts", () => {
  let sdk: SdkAgent;
  let v01: LegacyAgent;

  test.beforeAll(async () => {
    [sdk, v01] = await Promise.all([startSdkAgent(), startLegacyAgent({ dialect: "0.1" })]);
  });

  test.afterAll(async () => {
    await Promise.all([sdk?.close(), v01?.close()]);
  });

  test("streams from the SDK (v1.0 JSON-RPC) and the v0.1 peer: every frame valid, with a summary", async ({ page, app }) => {
    const a2a = new A2aPage(page);
    await a2a.open(app.url);

    await a2a.headers([["A2A-Version", "1.0"]]);
    await a2a.fetchCard(sdk.baseUrl);
    await expect(a2a.dialect).toHaveText("v1.0");
    await a2a.compose("Send and stream", "chunks 3");
    await a2a.send.click();
    await expect(a2a.streamEnd).toHaveText("the stream ended at a terminal state");
    // The task, then three rounds of status and chunk, then completed.
    const frames = await a2a.exchange.getByTestId("a2a-frame-text").count();
    expect(frames).toBeGreaterThanOrEqual(5);
    await expect(a2a.frameVerdicts()).toHaveText(Array.from({ length: frames }, () => /^valid · A2A v1\.0 StreamResponse event \(SendStreamingMessage, SubscribeToTask\)$/));
    await expect(a2a.requestVerdict()).toHaveText("valid · A2A v1.0 SendStreamingMessage request");
    await expect(a2a.frameSummary()).toHaveText(`${frames + 1} frames checked against A2A v1.0: ${frames + 1} valid.`);

    await a2a.headers([["", ""]]);
    await a2a.fetchCard(v01.baseUrl);
    await a2a.compose("Send and stream", "chunks 3");
    await a2a.send.click();
    await expect(a2a.streamEnd).toHaveText("the stream ended at final: true");
    const legacy = await a2a.exchange.getByTestId("a2a-frame-text").count();
    expect(legacy).toBeGreaterThanOrEqual(5);
    await expect(a2a.frameVerdicts()).toHaveText(Array.from({ length: legacy }, () => /^valid · A2A v0\.1 \(Google A2A\) stream (status|artifact) update /));
    await expect(a2a.frameVerdicts().filter({ hasText: "artifact update" })).toHaveCount(3);
    await expect(a2a.requestVerdict()).toHaveText("valid · A2A v0.1 (Google A2A) tasks/sendSubscribe request");
    await expect(a2a.frameSummary()).toHaveText(`${legacy + 1} frames checked against A2A v0.1 ("Google A2A"): ${legacy + 1} valid.`);
  });

  test("a peer's wrong state is invalid, at the pointer of its first problem", async ({ page, app }) => {
    const wrong = await startWrongStatePeer();
    try {
      const a2a = new A2aPage(page);
      await a2a.open(app.url);
      await a2a.fetchCard(wrong.baseUrl);
      await expect(a2a.dialect).toHaveText("v0.2.x");
      await a2a.compose("Send and stream", "hello");
      await a2a.send.click();
      await expect(a2a.streamEnd).toHaveText("the stream ended at final: true");
      await expect(a2a.frameVerdicts()).toHaveCount(3);
      await expect(a2a.frameVerdicts().nth(0)).toHaveText(/^valid · A2A v0\.2\.x stream event: Task or Message/);
      await expect(a2a.frameVerdicts().nth(1)).toHaveText(/^invalid · A2A v0\.2\.x stream status-update \(message\/stream, tasks\/resubscribe\) · \/result\/status\/state: /);
      await expect(a2a.frameVerdicts().nth(1)).toHaveClass(/\bbad\b/);
      await expect(a2a.frameVerdicts().nth(2)).toHaveText(/^valid · /);
      await expect(a2a.frameSummary()).toHaveText("4 frames checked against A2A v0.2.x: 3 valid, 1 invalid.");
    } finally {
      await wrong.close();
    }
  });

  test("raw mode: a SendMessage without its message is invalid; the agent's error response is judged too", async ({ page, app }) => {
    const a2a = new A2aPage(page);
    await a2a.open(app.url);
    await a2a.headers([["A2A-Version", "1.0"]]);
    await a2a.fetchCard(sdk.baseUrl);
    await a2a.compose("Send a message", "hello");
    await a2a.rawBody('{"jsonrpc":"2.0","id":7,"method":"SendMessage","params":{}}');
    await a2a.send.click();
    await expect(a2a.status).toHaveText("HTTP 200");
    await expect(a2a.requestVerdict()).toHaveText(/^invalid · A2A v1\.0 SendMessage request · \/params: .*message/);
    await expect(a2a.frameVerdicts()).toHaveText([/^valid · A2A v1\.0 error response$/]);
    await expect(a2a.frameSummary()).toHaveText("2 frames checked against A2A v1.0: 1 valid (1 of them an error response), 1 invalid.");
  });
});
