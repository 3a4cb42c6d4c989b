import { binPath } from "../../../server/paths.ts";
import { BackendClient } from "../../../src/core/backend/backend-client.ts";
import { shellWords } from "../../helpers/shell-words.ts";
import { expect, test } from "../fixtures.ts";
import { A2aPage } from "../pages/a2a-page.ts";
import { ServeA2aPage } from "../pages/serve-a2a-page.ts";
import { ServePage } from "../pages/serve-page.ts";
import { TrafficPage } from "../pages/traffic-page.ts";

/**
 * The Serve workbench's A2A surface against Patchbay's own A2A workbench in Chromium: the served
 * agent is found by the card URL the surface shows, answers a message with a completed echo task,
 * and its frames reach the Traffic log beside the workbench's own.
 */
test.describe("Serve workbench: the A2A agent", () => {
  test.afterEach(async ({ app }) => {
    // The backend outlives this spec: leave nothing serving.
    const backend = new BackendClient({ fetch, token: app.token, baseUrl: app.origin });
    await backend.call("POST", "/serve/a2a/stop", {}).catch(() => undefined);
  });

  test("serves the demo toolkit over A2A: the A2A workbench connects by its card URL, echo completes, the served frames are in Traffic", async ({ page, app }) => {
    test.setTimeout(90_000);
    const serve = new ServePage(page);
    await serve.open(app.url);
    const agent = new ServeA2aPage(page);
    await expect(agent.servedSet).toContainText("computed from the editor (not running)");
    await expect(agent.textSkill).toHaveValue("echo");
    const cardUrl = await agent.startAgent("0");
    const base = cardUrl.replace(/\/\.well-known\/agent-card\.json$/, "");
    await expect(agent.jsonRpcUrl).toHaveText(`${base}/a2a/jsonrpc`);
    await expect(agent.restUrl).toHaveText(`${base}/a2a/rest`);
    await expect(agent.servedSet).toContainText("as the backend serves it");
    await expect(agent.servedSet.getByText("echo", { exact: true })).toBeVisible();
    await expect(agent.cardLink).toHaveAttribute("target", "_blank");

    // The card link opens the agent's own card, served from its own port.
    const [tab] = await Promise.all([page.waitForEvent("popup"), agent.cardLink.click()]);
    await expect(tab.locator("body")).toContainText('"name":"patchbay-demo"');
    await tab.close();

    // The curl snippet's body, posted as written, runs echo.
    const curl = shellWords((await serve.snippet("curl, JSON-RPC message/send (v0.3)").textContent()) ?? "");
    expect(curl.slice(0, 3)).toEqual(["curl", "-sS", `${base}/a2a/jsonrpc`]);
    const answer = (await (await fetch(curl[2] ?? "", { method: "POST", headers: { "Content-Type": "application/json" }, body: curl[6] ?? "" })).json()) as { result?: { status?: { state?: string } } };
    expect(answer.result?.status?.state).toBe("completed");
    // The call snippet names this clone's own command (nothing is saved yet): never a bare
    // `patchbay`, which a fresh clone does not have on its PATH, nor npx, which fetches another package.
    await expect(serve.snippet("Patchbay, call a2a")).toContainText(`call a2a ${cardUrl} hello`);
    const call = shellWords((await serve.snippet("Patchbay, call a2a").textContent()) ?? "");
    expect(call).toEqual([process.execPath, binPath(), "call", "a2a", cardUrl, "hello"]);

    // The A2A workbench, reached by its tab (no reload: the Serve session keeps reading the frames).
    await page.getByRole("tab", { name: "A2A (HTTP)" }).click();
    const a2a = new A2aPage(page);
    await expect(a2a.fetchButton).toBeVisible();
    await a2a.fetchCard(cardUrl, { exact: true });
    await expect(a2a.dialect).toHaveText("v0.3");
    await a2a.compose("Send a message", "hello from the served e2e agent");
    await a2a.send.click();
    await expect(a2a.status).toHaveText("HTTP 200");
    await a2a.view("Conversations");
    await expect(a2a.taskState()).toHaveText("completed");
    await expect(a2a.task().getByTestId("a2a-artifact-text")).toHaveText("hello from the served e2e agent");

    // The served side of that exchange, verbatim, in Traffic: the request in and the answer out, paired.
    await page.getByRole("tab", { name: "Traffic" }).click();
    const traffic = new TrafficPage(page);
    await traffic.search.fill("hello from the served e2e agent");
    const served = traffic.rows.filter({ hasText: "served a2a" });
    await expect(served).toHaveCount(2);
    await expect(served.first()).toContainText("message/send");
    await expect(served.nth(1)).toContainText("↩ message/send");
    await served.first().click();
    // Verbatim: the bytes the workbench sent (its own layout) are the bytes the agent received.
    await expect(traffic.rawBytes).toContainText(/"method":\s*"message\/send"/);
    await expect(traffic.rawBytes).toContainText('"text": "hello from the served e2e agent"');
    await traffic.search.fill("served a2a GET /.well-known/agent-card.json");
    await expect(traffic.rows.first()).toBeVisible();

    // Back in Serve (the agent kept running meanwhile): the task is kept, then the agent stops.
    await serve.reopen();
    await expect(agent.state).toHaveText("running");
    await expect(agent.tasks).toContainText(/0 running, [1-9]\d* kept/);
    await expect(agent.traffic).toContainText(/Served traffic in the Traffic log: [1-9]\d* frames/);
    await agent.stop.click();
    await expect(agent.state).toHaveText("stopped");
    await expect(agent.servedSet).toContainText("computed from the editor (not running)");
  });
});
