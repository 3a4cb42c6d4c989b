import { join } from "node:path";
import { ROOT } from "../app-info.ts";
import { expect, test } from "../fixtures.ts";
import { McpClientPage } from "../pages/mcp-client-page.ts";
import { TrafficPage } from "../pages/traffic-page.ts";

const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");

test.describe("MCP client features against server-everything (stdio)", () => {
  test("answers sampling, follows progress, offers roots, shows the server's log and pings", async ({ page, app }) => {
    const client = new McpClientPage(page);
    const { mcp } = client;
    await mcp.open(app.url);

    // Roots are set before connecting; a URI that is not file:// is refused and nothing is lost.
    await client.setRoot(0, "https://example.com/repo", "web");
    await client.applyRoots();
    await expect(client.roots.getByText('Root 1: "https://example.com/repo" is not a file:// URI. MCP allows only file:// URIs as roots.')).toBeVisible();
    await expect(client.roots.getByLabel("Root 1 name")).toHaveValue("web");
    await client.setRoot(0, "file:///srv/patchbay", "patchbay");
    await client.applyRoots();
    await expect(client.roots.getByRole("status")).toHaveText("1 root(s) saved; they are offered when you connect.");

    await expect(client.capability("Elicitation")).toBeChecked();
    await expect(client.capability("Sampling")).toBeChecked();
    await expect(client.capability("Roots")).toBeChecked();
    await mcp.connectStdio(process.execPath, [EVERYTHING, "stdio"]);
    await expect(mcp.state).toHaveText("connected", { timeout: 20_000 });
    await expect(client.capability("Sampling")).toBeDisabled();

    await client.ping.click();
    await expect(client.pingResult).toHaveText(/^Pong in \d+(\.\d)? ms$/);

    // Sampling: the request is shown, a bad answer is refused in place, the edited stub is sent.
    await mcp.call("trigger-sampling-request", '{"prompt":"Say hi","maxTokens":21}');
    await expect(client.sampling).toBeVisible();
    await expect(client.sampling.getByTestId("mcp-sampling-system")).toHaveText("You are a helpful test server.");
    await expect(client.sampling.getByTestId("mcp-sampling-max-tokens")).toHaveText("21");
    await expect(client.sampling.getByRole("list", { name: "Messages" })).toContainText("Resource trigger-sampling-request context: Say hi");
    await expect(client.samplingAnswer).toHaveValue(/"model": "patchbay-stub"/);
    await client.samplingAnswer.fill('{"role": "assistant"}');
    await client.sampling.getByRole("button", { name: "Send answer" }).click();
    await expect(client.sampling.getByRole("alert")).toHaveText(/^This is not a CreateMessageResult: /);
    await client.samplingAnswer.fill(JSON.stringify({ role: "assistant", content: { type: "text", text: "Hello from the e2e stub" }, model: "patchbay-stub", stopReason: "endTurn" }));
    await client.sampling.getByRole("button", { name: "Send answer" }).click();
    await expect(client.sampling).toHaveCount(0);
    await expect(mcp.outcome).toHaveText("Success");
    await expect(mcp.content).toContainText("Hello from the e2e stub");

    // Escape declines: the server's tool fails with the JSON-RPC error it got.
    await mcp.call("trigger-sampling-request", '{"prompt":"Say no"}');
    await expect(client.sampling).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(client.sampling).toHaveCount(0);
    await expect(mcp.outcome).toHaveText("Tool error (isError: true)");
    await expect(mcp.content).toContainText("The user declined the sampling request.");

    // Roots answered to the server.
    await mcp.call("get-roots-list", "{}");
    await expect(mcp.content).toContainText("URI: file:///srv/patchbay");

    // Progress: the bar moves step by step.
    await mcp.call("trigger-long-running-operation", '{"duration":3,"steps":3}');
    await expect(client.progress).toBeVisible();
    await expect.poll(() => client.progressValue()).toBe(1);
    await expect.poll(() => client.progressValue()).toBe(2);
    await expect(mcp.outcome).toHaveText("Success");
    await expect(client.progressText).toContainText("3 / 3");

    // A per-call time limit overrides the connection's.
    await client.openCallOptions();
    await client.timeLimit.fill("0.5");
    await mcp.call("trigger-long-running-operation", '{"duration":5,"steps":5}');
    await expect(mcp.outcome).toHaveText("Timed out");
    await expect(page.getByText("No answer within 500 ms.")).toBeVisible();
    await client.timeLimit.fill("");

    // A typed progressToken is kept; the user cancels after the first step.
    await client.meta.fill('{"progressToken": "e2e-token"}');
    await mcp.call("trigger-long-running-operation", '{"duration":20,"steps":20}');
    await expect.poll(() => client.progressValue()).toBeGreaterThanOrEqual(1);
    await client.cancel.click();
    await expect(mcp.outcome).toHaveText("Cancelled");

    // Logging: set the level, start the simulated log, filter by level.
    await expect(client.logMessages.filter({ hasText: "Roots updated" }).first()).toBeVisible();
    await client.logLevel.selectOption("debug");
    await client.setLevel.click();
    await expect(client.log.getByRole("status")).toHaveText("The server now sends messages at debug and above.");
    await mcp.call("toggle-simulated-logging", "{}");
    await expect(mcp.content).toContainText("Started simulated");
    await expect(client.logMessages.filter({ hasText: /-level message|level-message/ }).first()).toBeVisible();
    await client.showFrom.selectOption("emergency");
    await expect(client.logMessages.filter({ hasText: "Roots updated" })).toHaveCount(0);
    await mcp.call("toggle-simulated-logging", "{}");
    await expect(mcp.content).toContainText("Stopped simulated");

    // Both the time limit and the user's cancel told the server with notifications/cancelled.
    await page.getByRole("tab", { name: "Traffic" }).click();
    const traffic = new TrafficPage(page);
    await traffic.method.fill("notifications/cancelled");
    await expect(traffic.row(/sent mcp stdio:.* notifications\/cancelled \d+ B/)).toHaveCount(2);
  });

  test("a capability left unticked is not declared: the server offers no sampling tool", async ({ page, app }) => {
    const client = new McpClientPage(page);
    const { mcp } = client;
    await mcp.open(app.url);
    await client.capability("Sampling").uncheck();
    await mcp.connectStdio(process.execPath, [EVERYTHING, "stdio"]);
    await expect(mcp.state).toHaveText("connected", { timeout: 20_000 });
    await mcp.selectTool("get-roots-list");
    await mcp.toolFilter.fill("trigger-sampling-request");
    await expect(mcp.tools.getByRole("option")).toHaveCount(0);
  });
});
