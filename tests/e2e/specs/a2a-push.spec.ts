import { BackendClient } from "../../../src/core/backend/backend-client.ts";
import { startSdkAgent, type SdkAgent } from "../../helpers/a2a-peers/index.ts";
import { expect, test } from "../fixtures.ts";
import { A2aPage } from "../pages/a2a-page.ts";
import { TrafficPage } from "../pages/traffic-page.ts";

/**
 * Push notifications to Patchbay in Chromium: a receiver on the backend for a task, a push config
 * on the task pointing at it, and the @a2a-js/sdk agent POSTing each event there (v1.0
 * StreamResponses; v0.3 Tasks through the SDK's legacy serializer). They show on the task's
 * timeline with their arrival time and in Traffic, and the receiver is deleted once the task ends.
 */

test.describe("A2A push notifications to Patchbay", () => {
  let sdk: SdkAgent;

  test.beforeAll(async () => {
    sdk = await startSdkAgent();
  });

  test.afterAll(async () => {
    await sdk?.close();
  });

  /** The receiver's status on the backend: 404 once it is deleted. */
  async function receiverStatus(app: { origin: string; token: string }, url: string): Promise<number> {
    const id = url.split("/").pop() ?? "";
    const client = new BackendClient({ fetch, token: app.token, baseUrl: app.origin });
    return client.call("GET", `/a2a/push-receivers/${id}`).then(
      () => 200,
      (err: { status: number }) => err.status,
    );
  }

  test("v1.0 JSON-RPC: a slow streamed task pushed to Patchbay from its card; notifications on the timeline and in Traffic", async ({ page, app }) => {
    const a2a = new A2aPage(page);
    await a2a.open(app.url);
    await a2a.headers([["A2A-Version", "1.0"]]);
    await a2a.fetchCard(sdk.baseUrl);
    await expect(a2a.dialect).toHaveText("v1.0");
    await a2a.compose("Send and stream", "slow 3000");
    await expect(a2a.interfaceRadio(/^JSONRPC · v1\.0 .*preferred/)).toBeChecked();
    await a2a.send.click();
    await a2a.view("Conversations");
    await expect(a2a.taskState()).toHaveText("working");

    await a2a.task().getByRole("button", { name: "Push to Patchbay" }).click();
    const receiver = a2a.pushReceiver();
    await expect(receiver.getByTestId("a2a-push-url")).toHaveText(new RegExp(`^${app.origin}/hooks/a2a/[\\w-]+$`));
    const url = (await receiver.getByTestId("a2a-push-url").textContent()) ?? "";
    await expect(a2a.task().getByRole("button", { name: "Push to Patchbay" })).toBeDisabled();
    await expect(a2a.pushLines().first()).toContainText("push notification: status TASK_STATE_WORKING");
    await expect(a2a.pushLines().first()).toContainText(/\d\d:\d\d:\d\d\.\d{3} arrived/);

    await expect(a2a.taskState()).toHaveText("completed");
    await expect(a2a.pushLines().last()).toContainText("push notification: status TASK_STATE_COMPLETED");
    await expect(a2a.task().getByTestId("a2a-push-closed")).toContainText("Receiver closed: the task ended");
    expect(await receiverStatus(app, url)).toBe(404);
    const shown = await a2a.pushLines().count();
    expect(shown).toBeGreaterThanOrEqual(2);
    await expect(a2a.task().getByTestId("a2a-push-closed")).toContainText(`(${shown} received)`);

    // Each one in Traffic, as it came.
    const traffic = new TrafficPage(page);
    await page.getByRole("tab", { name: "Traffic" }).click();
    await traffic.search.fill("push notification #");
    await expect(traffic.counts).toContainText(`showing ${shown} of`);
    await traffic.rows.last().click();
    await expect(traffic.detail).toContainText("statusUpdate");
  });

  test("v0.3 JSON-RPC: Compose's push config set with Patchbay's receiver; the pushes alone bring the task to its end", async ({ page, app }) => {
    const a2a = new A2aPage(page);
    await a2a.open(app.url);
    await a2a.fetchCard(sdk.baseUrl);
    await expect(a2a.dialect).toHaveText("v0.3");
    await a2a.compose("Send a message", "slow 5000");
    await a2a.interfaceRadio(/^JSONRPC · v0\.3/).check();
    await a2a.operation.selectOption({ label: "Send a message" });
    // `blocking: false`: the agent answers at once and works on, so only the pushes tell the rest.
    await page.getByRole("button", { name: "Edit as a raw request" }).click();
    const message = { kind: "message", messageId: "push-e2e-1", role: "user", parts: [{ kind: "text", text: "slow 5000" }] };
    await page.getByLabel("Raw body").fill(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: { message, configuration: { blocking: false } } }));
    await a2a.send.click();
    await expect(a2a.status).toHaveText("HTTP 200");
    await a2a.view("Conversations");
    await expect(a2a.taskState()).toHaveText(/^(submitted|working)$/);
    const taskId = await a2a.taskId();

    await a2a.view("Compose");
    await page.getByRole("radio", { name: "Template" }).check();
    await a2a.operation.selectOption({ label: "Set a push config" });
    await page.getByLabel("taskId", { exact: true }).fill(taskId);
    await page.getByRole("button", { name: "Receive in Patchbay" }).click();
    await expect(page.getByLabel("Webhook URL")).toHaveValue(new RegExp(`^${app.origin}/hooks/a2a/[\\w-]+$`));
    const url = await page.getByLabel("Webhook URL").inputValue();
    await expect(a2a.pushReceiver(page.getByRole("group", { name: "Receive in Patchbay" })).getByTestId("a2a-push-url")).toHaveText(url);
    await a2a.send.click();
    await expect(a2a.status).toHaveText("HTTP 200");

    await a2a.view("Conversations");
    await expect(a2a.pushLines().first()).toContainText(`push notification: task ${taskId}`);
    await expect(a2a.taskState()).toHaveText("completed", { timeout: 15_000 });
    await expect(a2a.pushLines().last()).toContainText(`push notification: task ${taskId} completed`);
    await expect(a2a.task().getByTestId("a2a-artifact-text")).toHaveText("done after 5000 ms");
    await expect(a2a.task().getByTestId("a2a-push-closed")).toContainText("Receiver closed: the task ended");
    expect(await receiverStatus(app, url)).toBe(404);

    const shown = await a2a.pushLines().count();
    const traffic = new TrafficPage(page);
    await page.getByRole("tab", { name: "Traffic" }).click();
    await traffic.search.fill("push notification #");
    await expect(traffic.counts).toContainText(`showing ${shown} of`);
  });
});
