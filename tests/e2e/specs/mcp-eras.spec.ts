import { expect, test } from "../fixtures.ts";
import { startModernServer, type ModernServer } from "../../helpers/modern-mcp-server.ts";
import { McpErasPage } from "../pages/mcp-eras-page.ts";

let server: ModernServer;
test.beforeAll(async () => {
  server = await startModernServer();
});
test.afterAll(async () => {
  await server?.close();
});

test.describe("MCP workbench against a 2026-07-28 server (the v2 server package)", () => {
  test("auto picks modern and says why; a tool that needs input is answered in the page; a task is run and cancelled", async ({ page, app }) => {
    const eras = new McpErasPage(page);
    const { mcp } = eras;
    await mcp.open(app.url);
    await expect(eras.eraSetting).toHaveValue("auto");
    await eras.connectHttp(server.url);
    await expect(eras.era).toContainText("modern");
    await expect(eras.eraReason).toHaveText("modern: server/discover answered with 2026-07-28");
    await expect(mcp.negotiated).toHaveText("2026-07-28");

    // input_required, two rounds answered in the page: the second carries the server's signed
    // requestState, which the retry echoes, and the retry's answer is the call's result.
    await mcp.call("wipe-cache", "{}");
    await expect(mcp.elicitation).toContainText("Really wipe the cache?");
    await mcp.elicitation.getByLabel("confirm").check();
    await mcp.elicitation.getByRole("button", { name: "Accept" }).click();
    await expect(mcp.elicitation).toContainText("Which scope?");
    await mcp.elicitation.getByLabel("scope").fill("thumbnails");
    await mcp.elicitation.getByRole("button", { name: "Accept" }).click();
    await expect(mcp.outcome).toHaveText("Success");
    await expect(mcp.content).toContainText("wiped thumbnails");
    await expect(eras.rounds.getByRole("heading")).toHaveText("The server asked for input 2 times");
    const [first, second] = [eras.rounds.getByTestId("mcp-input-round").nth(0), eras.rounds.getByTestId("mcp-input-round").nth(1)];
    await expect(first.getByTestId("mcp-input-answer")).toHaveText('accepted {"confirm":true}');
    await expect(first).toContainText(/Retried as request \d+, requestState none\./);
    await expect(second).toContainText(/Round 2: request \d+ was answered input_required with a requestState\./);
    await expect(second.getByTestId("mcp-input-answer")).toHaveText('accepted {"scope":"thumbnails"}');
    await expect(second).toContainText(/Retried as request \d+, requestState (?!none)\S+/);
    // The round's frames: the input_required answer with its requestState, and the retry echoing it.
    await second.getByText("Frames of round 2").click();
    const answer = second.getByLabel(/^Answer to request \d+$/);
    await expect(answer).toContainText('"resultType": "input_required"');
    const state = /"requestState": "([^"]+)"/.exec((await answer.textContent()) ?? "")?.[1];
    expect(state ?? "", "the input_required answer carries a requestState").toMatch(/^\S{8,}$/);
    await expect(second.getByLabel(/^Retry \d+$/)).toContainText(`"requestState": "${state}"`);
    expect(server.seen.requests.filter((r) => r.method === "tools/call" && r.body.includes(state!)).length).toBe(1);

    // Run as task: the task shows in Tasks, polled, and is cancelled there.
    await mcp.selectTool("research");
    await mcp.argsEditor.waitReady();
    await mcp.argsEditor.replaceText('{"topic": "tides", "seconds": 60}');
    await eras.runAsTask.click();
    await expect(mcp.outcome).toHaveText(/^Running as task task-\d+$/);
    const taskId = (await mcp.outcome.textContent())!.replace("Running as task ", "");
    await eras.openTasks();
    const row = eras.task(taskId);
    await expect(row.getByTestId("mcp-task-status")).toHaveText("working");
    await expect(row).toContainText("polling every 0.2 s");
    await row.getByRole("button", { name: "Cancel task" }).click();
    await expect(row.getByTestId("mcp-task-status")).toHaveText("cancelled");
    await expect(row).toHaveAttribute("data-status", "cancelled");
    expect(server.tasks.log.some((l) => l.method === "tasks/cancel" && l.taskId === taskId)).toBe(true);
  });

  test("a retry held for review sends a changed requestState, and the server's refusal is shown", async ({ page, app }) => {
    const eras = new McpErasPage(page);
    const { mcp } = eras;
    await mcp.open(app.url);
    await eras.connectHttp(server.url, "modern");
    await expect(eras.eraReason).toHaveText("modern: chosen for this server; server/discover answered with 2026-07-28");
    await mcp.selectTool("wipe-cache");
    await page.getByText("Call options: _meta, progress, time limit").click();
    await page.getByLabel("Review each retry when the server asks for input (its requestState can be edited)").check();
    await mcp.call("wipe-cache", "{}");
    // Round 1 asks for a confirmation (no requestState yet).
    await expect(mcp.elicitation).toBeVisible();
    await mcp.elicitation.getByLabel("confirm").check();
    await mcp.elicitation.getByRole("button", { name: "Accept" }).click();
    await page.getByRole("button", { name: "Send retry" }).click();
    // Round 2 carries the server's signed requestState: change it before the retry goes.
    await expect(mcp.elicitation).toBeVisible();
    await mcp.elicitation.getByLabel("scope").fill("all");
    await mcp.elicitation.getByRole("button", { name: "Accept" }).click();
    const state = page.getByTestId("mcp-retry-state");
    await expect(state).not.toHaveValue("");
    await state.fill("tampered-state");
    await page.getByRole("button", { name: "Send retry" }).click();
    await expect(mcp.outcome).toHaveText("JSON-RPC error");
    await expect(page.getByRole("region", { name: "Call outcome" })).toContainText(/The server refused the request \(code -32602\): .*requestState/i);
    await expect(eras.rounds).toContainText("(changed by hand)");
  });
});
