import { chunkText, followUpText, PEER_TEXT, startLegacyAgent, startSdkAgent, type LegacyAgent, type SdkAgent } from "../../helpers/a2a-peers/index.ts";
import { expect, test } from "../fixtures.ts";
import { A2aPage } from "../pages/a2a-page.ts";
import { TrafficPage } from "../pages/traffic-page.ts";

/**
 * The A2A (HTTP) workbench in Chromium against real peers: an @a2a-js/sdk 1.3 agent (v1.0 and
 * v0.3, JSON-RPC and HTTP+JSON) and the hand-written v0.1 and v0.2 agents, all reached through
 * the backend's relay as the workbench does by default.
 */

test.describe("A2A over HTTP from the browser", () => {
  let sdk: SdkAgent;
  let v01: LegacyAgent;
  let v02: LegacyAgent;

  test.beforeAll(async () => {
    [sdk, v01, v02] = await Promise.all([startSdkAgent(), startLegacyAgent({ dialect: "0.1" }), startLegacyAgent({ dialect: "0.2" })]);
  });

  test.afterAll(async () => {
    await Promise.all([sdk?.close(), v01?.close(), v02?.close()]);
  });

  test("cards of every dialect: attempts, dialect with evidence, verdict, extended card, comparison, CORS", async ({ page, app }) => {
    const a2a = new A2aPage(page);
    await a2a.open(app.url);

    await a2a.fetchCard(v01.baseUrl);
    await expect(a2a.attempts.getByRole("listitem")).toHaveCount(2);
    await expect(a2a.attempts.getByRole("listitem").first()).toContainText("agent-card.json → HTTP 404");
    await expect(a2a.attempts.getByRole("listitem").nth(1)).toContainText("agent.json → HTTP 200: a card");
    await expect(a2a.dialect).toHaveText('v0.1 ("Google A2A")');
    await expect(a2a.evidence).toContainText("authentication object");
    await expect(a2a.verdict).toContainText("valid A2A v0.1");

    await a2a.fetchCard(v02.baseUrl);
    await expect(a2a.dialect).toHaveText("v0.2.x");
    await expect(a2a.verdict).toContainText("valid A2A v0.2.x");
    await expect(page.getByRole("list", { name: "Skills" })).toContainText("Echo");

    // The SDK serves its v0.3 card unless asked for 1.0 by header.
    await a2a.fetchCard(sdk.baseUrl);
    await expect(a2a.dialect).toHaveText("v0.3");
    await expect(a2a.evidence).toContainText("also lists supportedInterfaces");
    // It declares v0.3 and is judged so; its v1.0 interfaces are a warning, not an era mix.
    await expect(a2a.verdict).toContainText("valid A2A v0.3.0");
    await expect(page.getByTestId("a2a-card-verdict-as-read")).toHaveCount(0);
    await expect(page.getByText("may list its v1.0 interfaces there for v1.0 clients").first()).toBeAttached();
    await page.getByRole("button", { name: "Keep for comparison" }).click();

    await a2a.headers([["A2A-Version", "1.0"]]);
    await expect(page.getByTestId("stale-note").first()).toBeVisible();
    await a2a.fetchButton.click();
    await expect(a2a.dialect).toHaveText("v1.0");
    await expect(a2a.verdict).toContainText("valid A2A v1.0");
    await expect(a2a.interfaceRadio(/^HTTP\+JSON · v1\.0/)).toBeVisible();
    await expect(page.getByRole("list", { name: "Dialect evidence" })).toContainText("protocol versions 1.0, 0.3");
    await expect(page.getByRole("region", { name: "Card facts" }).first()).toContainText("httpAuth · Bearer");
    await page.getByRole("button", { name: "Keep for comparison" }).click();

    // The extended card needs the bearer token.
    await page.getByRole("button", { name: "Fetch the extended card" }).click();
    await expect(page.getByTestId("a2a-extended-problem")).toContainText("HTTP 401");
    await a2a.bearer.fill(sdk.token);
    await page.getByRole("button", { name: "Fetch the extended card" }).click();
    await expect(page.getByTestId("a2a-extended-way")).toContainText("GetExtendedAgentCard");
    await expect(page.getByTestId("a2a-extended-ok")).toBeVisible();
    await expect(page.getByRole("region", { name: "Extended card" })).toContainText("VIP echo");

    await a2a.view("Compare cards");
    await expect(page.getByTestId("a2a-diff-count")).toContainText(/^[1-9]\d* line\(s\) differ/);
    await expect(page.getByRole("table", { name: "Card differences" })).toContainText('"protocolVersion": "0.3"');

    // Straight from the page, the SDK agent's missing CORS headers stop the browser.
    await a2a.fetchCard(v02.baseUrl, { via: "direct" });
    await expect(a2a.directNote).toContainText("CORS");
    await expect(page.getByTestId("a2a-no-card")).toBeVisible();
  });

  test("a card fetch that finds nothing fails in the main pane, with what each address answered", async ({ page, app }) => {
    const a2a = new A2aPage(page);
    await a2a.open(app.url);
    await a2a.fetchCard("http://127.0.0.1:1");
    const failure = page.getByRole("alert", { name: "Card fetch failure" });
    await expect(failure).toContainText("No Agent Card found");
    await expect(failure.getByRole("listitem").first()).toContainText("http://127.0.0.1:1/");
    await expect(failure.getByRole("listitem").first()).toContainText("no answer");
    await expect(page.locator("#a2a-tabpanel")).not.toContainText("Fetch an Agent Card (on the left)");
    // Changed, the form no longer matches what was tried.
    await a2a.url.fill("http://127.0.0.1:2");
    await expect(failure.getByTestId("stale-note")).toBeVisible();
  });

  test("stream, answer input-required, cancel, v0.1: every frame in Traffic, no secret", async ({ page, app }) => {
    test.setTimeout(60_000);
    const a2a = new A2aPage(page);
    await a2a.open(app.url);

    // v1.0 JSON-RPC: a streamed artifact in three chunks, assembled.
    await a2a.headers([["A2A-Version", "1.0"]]);
    await a2a.bearer.fill(sdk.token);
    await a2a.fetchCard(sdk.baseUrl);
    await expect(a2a.dialect).toHaveText("v1.0");
    await a2a.compose("Send and stream", "chunks 3");
    await expect(a2a.interfaceRadio(/^JSONRPC · v1\.0 .*preferred/)).toBeChecked();
    await a2a.send.click();
    await expect(page.getByTestId("a2a-stream-end")).toHaveText("the stream ended at a terminal state");
    await page.getByRole("button", { name: "Open in Conversations" }).click();
    await expect(a2a.taskState()).toHaveText("completed");
    await expect(a2a.task().getByTestId("a2a-artifact-text")).toHaveText(chunkText(1, 3) + chunkText(2, 3) + chunkText(3, 3));
    await expect(a2a.task()).toContainText("(3 chunks, complete)");
    await expect(a2a.task().getByRole("list", { name: "State steps" })).toContainText("TASK_STATE_SUBMITTED");
    await expect(a2a.timeline()).toContainText("artifact chunks + append (last chunk)");

    // v0.3 over HTTP+JSON: input-required, answered in the same task.
    await a2a.compose("Send a message", "ask");
    await a2a.interfaceRadio(/^HTTP\+JSON · v0\.3/).check();
    await a2a.operation.selectOption({ label: "Send a message" });
    await a2a.send.click();
    // The SDK's v0.3 REST layer answers a send with 201 Created.
    await expect(page.getByTestId("a2a-status")).toHaveText("HTTP 201");
    await a2a.view("Conversations");
    await expect(a2a.taskState()).toHaveText("input-required");
    await expect(a2a.task()).toContainText(PEER_TEXT.question);
    const taskName = await a2a.task().getAttribute("aria-label");
    await a2a.task().getByLabel("Answer in the same task").fill("blue");
    await a2a.task().getByRole("button", { name: "Send answer" }).click();
    const same = page.getByRole("article", { name: taskName ?? "" });
    await expect(same.getByTestId("a2a-task-state")).toHaveText("completed");
    await expect(same).toContainText(followUpText("blue"));

    // auth-required is explained, and answered the same way.
    await a2a.compose("Send a message", "auth");
    await a2a.send.click();
    await a2a.view("Conversations");
    await expect(a2a.taskState()).toHaveText("auth-required");
    await expect(a2a.task().getByRole("note")).toContainText("A2A leaves how to the agent");
    await expect(a2a.task().getByLabel("Answer in the same task")).toBeVisible();

    // v0.2: a slow task, canceled while its stream runs.
    await a2a.headers([["", ""]]);
    await a2a.fetchCard(v02.baseUrl);
    await a2a.compose("Send and stream", "slow 20000");
    await a2a.send.click();
    await a2a.view("Conversations");
    await expect(a2a.taskState()).toHaveText("working");
    await a2a.task().getByRole("button", { name: "Cancel" }).click();
    await expect(a2a.taskState()).toHaveText("canceled");
    await a2a.view("Compose");
    await expect(page.getByTestId("a2a-stream-end")).toHaveText("the stream ended at final: true");

    // v0.1: the client chooses the task id.
    await a2a.fetchCard(v01.baseUrl);
    await a2a.compose("Send a message", "echo from v0.1");
    await expect(page.getByTestId("a2a-request-line")).toHaveText(`POST ${v01.baseUrl}/`);
    await a2a.send.click();
    await expect(page.getByTestId("a2a-status")).toHaveText("HTTP 200");
    await a2a.view("Conversations");
    await expect(a2a.taskState()).toHaveText("completed");
    await expect(page.getByTestId("a2a-thread-context")).not.toHaveText("(none)");

    // A v0.2 stream whose agent goes away mid-task: named as broken, with resubscribe offered.
    const doomed = await startLegacyAgent({ dialect: "0.2" });
    await a2a.fetchCard(doomed.baseUrl);
    await a2a.compose("Send and stream", "slow 20000");
    await a2a.send.click();
    await a2a.view("Conversations");
    await expect(a2a.taskState()).toHaveText("working");
    await doomed.close();
    await expect(a2a.task().getByTestId("a2a-stream-failure")).toContainText("(stream-broken)");
    await a2a.task().getByRole("button", { name: "Resubscribe" }).click();
    await expect(a2a.timeline().getByTestId("a2a-timeline-text").last()).toContainText("network: could not reach");

    const traffic = new TrafficPage(page);
    await page.getByRole("tab", { name: "Traffic" }).click();
    await traffic.search.fill(sdk.baseUrl);
    await expect(traffic.counts).toContainText(/showing (\d{2,}|[6-9]) of/);
    await traffic.search.fill(v02.baseUrl);
    await expect(traffic.counts).toContainText(/showing ([5-9]|\d{2,}) of/);
    await traffic.search.fill(sdk.token);
    await expect(traffic.counts).toContainText("showing 0 of");
  });
});
