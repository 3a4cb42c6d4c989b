import { join } from "node:path";
import { ROOT } from "../app-info.ts";
import { expect, test } from "../fixtures.ts";
import { McpPage } from "../pages/mcp-page.ts";
import { TrafficPage } from "../pages/traffic-page.ts";

const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");

test.describe("MCP workbench over the backend relay (stdio)", () => {
  test("connects to server-everything, calls tools with each outcome named, and sends raw JSON-RPC", async ({ page, app }) => {
    const mcp = new McpPage(page);
    await mcp.open(app.url);
    await mcp.connectStdio(process.execPath, [EVERYTHING, "stdio"], "2025-06-18");

    await expect(mcp.state).toHaveText("connected", { timeout: 20_000 });
    await expect(mcp.requested).toHaveText("2025-06-18");
    await expect(mcp.negotiated).toHaveText("2025-06-18");
    await expect(mcp.tools.getByRole("option").first()).toBeVisible();
    await expect(mcp.toolCount).not.toHaveText("0");

    await mcp.call("echo", '{"message":"hi"}');
    await expect(mcp.outcome).toHaveText("Success");
    await expect(mcp.content).toContainText("Echo: hi");
    await expect(mcp.outcomeRaw).toContainText('"text": "Echo: hi"');
    // Checked in the validation worker: the page's CSP keeps ajv off the page.
    await expect(mcp.resultCheck).toHaveText("Result checked against MCP 2025-06-18: valid");
    await expect(mcp.structuredCheck).toHaveCount(0);
    await expect(page.getByText("Results are not checked")).toHaveCount(0);

    await mcp.call("get-structured-content", '{"location":"Chicago"}');
    await expect(mcp.outcome).toHaveText("Success");
    await expect(mcp.outcomeRaw).toContainText('"conditions": "Light rain / drizzle"');
    await expect(mcp.resultCheck).toHaveText("Result checked against MCP 2025-06-18: valid");
    await expect(mcp.structuredCheck).toHaveText("structuredContent checked against the tool's outputSchema: valid");

    await mcp.call("get-sum", '{"a":"not a number","b":2}', "keyboard");
    await expect(mcp.outcome).toHaveText("Tool error (isError: true)");
    await expect(mcp.outcomeRaw).toContainText('"isError": true');
    await expect(mcp.resultCheck).toHaveText("Result checked against MCP 2025-06-18: valid");
    await expect(mcp.structuredCheck).toHaveCount(0);

    await mcp.rawMessage.fill('{"jsonrpc":"2.0","id":99,"method":"nope"}');
    await mcp.sendRaw.click();
    const frames = mcp.rawFrames.getByRole("listitem");
    await expect(frames.first()).toContainText('"method":"nope"');
    await expect(frames.filter({ hasText: /"id":\s*99/ }).filter({ hasText: /"error"/ })).toHaveCount(1);
    await expect(frames.filter({ hasText: /-32601/ })).toHaveCount(1);

    // Every frame reached Traffic too; the list is virtualised, so narrow it before counting rows.
    await page.getByRole("tab", { name: "Traffic" }).click();
    const traffic = new TrafficPage(page);
    const row = (name: RegExp) => traffic.rows.filter({ hasText: name });
    // The request and its answer: an answer carries its request's method, so a search keeps the pair.
    await traffic.search.fill("nope");
    await expect(traffic.rows).toHaveCount(2);
    await expect(traffic.rows.first()).toHaveAccessibleName(/sent mcp stdio:.* nope \d+ B/);
    await traffic.search.fill("-32601");
    await expect(traffic.rows).toHaveCount(1);
    await expect(traffic.rows.first()).toHaveAccessibleName(/received mcp stdio:.* error \d+ B/);
    await traffic.search.fill("tools/call");
    // Three calls and their three answers, each answer named by its request's method.
    await expect(row(/tools\/call/)).toHaveCount(6);
  });

  test("checks a tool call's arguments against the listed inputSchema, from the form and from raw mode", async ({ page, app }) => {
    const mcp = new McpPage(page);
    await mcp.open(app.url);
    await mcp.connectStdio(process.execPath, [EVERYTHING, "stdio"], "2025-11-25");
    await expect(mcp.state).toHaveText("connected", { timeout: 20_000 });

    await mcp.call("get-sum", '{"a":"x"}');
    await expect(mcp.outcome).toBeVisible();
    await expect(mcp.argumentsCheck).toHaveText("Arguments checked against the tool's inputSchema: 2 problems");
    const issues = page.getByRole("list", { name: "Arguments checked against the tool's inputSchema: issues" });
    await expect(issues).toContainText('/params/arguments/a "a" must be a number, not a string.');
    await expect(issues).toContainText('/params/arguments Missing required property "b".');
    // The form's frame, in the connection's list, gets the same verdict.
    const frames = mcp.rawFrames.getByRole("listitem");
    const formCall = frames.filter({ hasText: /"method":"tools\/call".*"name":"get-sum"/ });
    await expect(formCall.getByTestId("mcp-raw-verdict")).toHaveText("invalid · tools/call request");
    await expect(formCall).toContainText('/params/arguments/a: "a" must be a number, not a string.');

    await mcp.rawMessage.fill('{"jsonrpc":"2.0","id":77,"method":"tools/call","params":{"name":"get-sum","arguments":{"a":"x"}}}');
    await mcp.sendRaw.click();
    const rawCall = frames.filter({ hasText: '"id":77,"method":"tools/call"' });
    await expect(rawCall.getByTestId("mcp-raw-verdict")).toHaveText("invalid · tools/call request");
    await expect(rawCall).toContainText('/params/arguments/a: "a" must be a number, not a string.');
    await expect(rawCall).toContainText('/params/arguments: Missing required property "b".');
    // A call that fits the schema is valid: the verdict is the inputSchema's, not a blanket one.
    await mcp.rawMessage.fill('{"jsonrpc":"2.0","id":78,"method":"tools/call","params":{"name":"get-sum","arguments":{"a":1,"b":2}}}');
    await mcp.sendRaw.click();
    await expect(frames.filter({ hasText: '"id":78,"method":"tools/call"' }).getByTestId("mcp-raw-verdict")).toHaveText("valid · tools/call request");
  });

  test("answers the server's elicitation request from a generated form", async ({ page, app }) => {
    const mcp = new McpPage(page);
    await mcp.open(app.url);
    await mcp.connectStdio(process.execPath, [EVERYTHING, "stdio"], "2025-06-18");
    await expect(mcp.state).toHaveText("connected", { timeout: 20_000 });

    // The server asks for input mid-call; the dialog's answer completes the call.
    await mcp.call("trigger-elicitation-request", "{}");
    await expect(mcp.elicitation).toBeVisible();
    await expect(mcp.elicitation).toContainText("Please provide inputs for the following fields:");
    await expect(mcp.elicitation.getByLabel("String with default")).toHaveValue("It was a dark and stormy night.");
    await expect(mcp.elicitation.getByLabel("Integer", { exact: true })).toHaveValue("42");
    await mcp.elicitation.getByRole("button", { name: "Accept" }).click();
    await expect(mcp.elicitation.getByText("Required", { exact: true })).toBeVisible();
    await mcp.elicitation.getByRole("textbox", { name: "String", exact: true }).fill("Ada Lovelace");
    await mcp.elicitation.getByLabel("Boolean").check();
    await mcp.elicitation.getByLabel("String with email format").fill("ada@example.com");
    await mcp.elicitation.getByLabel("Integer", { exact: true }).fill("7");
    await mcp.elicitation.getByLabel("Legacy Titled Single Select Enum").selectOption({ label: "Dogs" });
    await mcp.elicitation.getByRole("button", { name: "Accept" }).click();
    await expect(mcp.elicitation).toHaveCount(0);
    await expect(mcp.outcome).toHaveText("Success");
    await expect(mcp.content).toContainText("- Name: Ada Lovelace");
    await expect(mcp.content).toContainText("- Agreed to terms: true");
    await expect(mcp.content).toContainText("- Email: ada@example.com");
    await expect(mcp.content).toContainText("- Favorite Integer: 7");
    await expect(mcp.outcomeRaw).toContainText('\\"legacyTitledEnum\\": \\"pet-2\\"');
    // The answer carried the number field's decimal default, and Patchbay's own check finds it valid.
    const answer = mcp.rawFrames.getByRole("listitem").filter({ hasText: '"action":"accept"' });
    await expect(answer).toContainText('"number":3.14');
    await expect(answer.getByTestId("mcp-raw-verdict")).toHaveText("valid · elicitation/create result");

    // Escape answers "cancel", and the tool says so.
    await mcp.call("trigger-elicitation-request", "{}");
    await expect(mcp.elicitation).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(mcp.elicitation).toHaveCount(0);
    await expect(mcp.content).toContainText("User cancelled the elicitation dialog.");
  });

  test("a command that cannot start fails in the main pane, in the command's own words", async ({ page, app }) => {
    const mcp = new McpPage(page);
    await mcp.open(app.url);
    await mcp.connectStdio("/nonexistent/patchbay-no-such-server", []);
    await expect(mcp.mainPane.getByRole("alert", { name: "Connection failure" })).toBeVisible({ timeout: 20_000 });
    await expect(mcp.mainPane).not.toContainText("Connect to an MCP server");
    await expect(page.getByTestId("mcp-failed-step")).toHaveText("spawn");
    await expect(mcp.failureMessage).toHaveText('command "/nonexistent/patchbay-no-such-server" was not found (ENOENT); give a path or a command on the backend\'s PATH');
    await expect(mcp.failure).not.toContainText(/relay|HTTP 502|spawn_failed/);
    await expect(mcp.state).toHaveText("failed");
    // The failure answers the form as it was: editing the command marks it stale.
    await expect(mcp.failure.getByTestId("stale-note")).toHaveCount(0);
    await mcp.command.fill("/nonexistent/another");
    await expect(mcp.failure.getByTestId("stale-note")).toBeVisible();
  });

  test("a process that exits, or writes what is not JSON-RPC to stdout, is named for it at connect time", async ({ page, app }) => {
    const mcp = new McpPage(page);
    await mcp.open(app.url);
    await mcp.connectStdio(process.execPath, ["-e", "process.exit(1)"]);
    await expect(page.getByTestId("mcp-failed-step")).toHaveText("closed", { timeout: 20_000 });
    // The form probes first (auto): the process ends on server/discover, and the failure says what that can mean.
    await expect(mcp.failureMessage).toHaveText("the connection closed before server/discover was answered: process exited with code 1; a server that exits on a request before initialize needs the legacy era");
    await expect(mcp.state).toHaveText("failed");

    await mcp.connectStdio(process.execPath, ["-e", "console.log('Hello from a plain program')"]);
    await expect(page.getByTestId("mcp-failed-step")).toHaveText("not-mcp", { timeout: 20_000 });
    await expect(mcp.failureMessage).toHaveText(
      "the server process wrote a line to stdout that is not JSON-RPC: Hello from a plain program, so it is not an MCP server, or not started as one " +
        "(the connection closed before server/discover was answered: process exited with code 0)",
    );
  });

  test("a JSON syntax error in the arguments shows alone, and a result is marked stale once the arguments change", async ({ page, app }) => {
    const mcp = new McpPage(page);
    await mcp.open(app.url);
    await mcp.connectStdio(process.execPath, [EVERYTHING, "stdio"], "2025-06-18");
    await expect(mcp.state).toHaveText("connected", { timeout: 20_000 });
    await mcp.selectTool("get-sum");
    await mcp.argsEditor.waitReady();

    // The schema wants "b"; the parse that failed is no reason to say it is missing.
    await mcp.argsEditor.replaceText('{"a": 2, "b": }');
    await expect(mcp.argsEditor.problems.filter({ hasText: "Value expected" })).toHaveCount(1);
    await expect(mcp.argsEditor.problems).toHaveCount(1);
    await expect(mcp.argsEditor.problemsRegion).not.toContainText("Missing property");
    // With the text fixed, the schema speaks again.
    await mcp.argsEditor.replaceText('{"a": 2}');
    await expect(mcp.argsEditor.problemsRegion).toContainText("Missing property");

    await mcp.argsEditor.replaceText('{"a": 40, "b": 2}');
    await mcp.send.click();
    await expect(mcp.content).toContainText("42");
    await expect(mcp.callStale).toHaveCount(0);
    await mcp.argsEditor.replaceText('{"a": 40, "b": }');
    await expect(mcp.callStale).toBeVisible();
    await expect(mcp.callStale).toContainText("the arguments changed");
    await mcp.argsEditor.replaceText('{\n  "a": 40,\n  "b": 2\n}');
    await expect(mcp.callStale).toHaveCount(0);

    // Another tool shows no answer of this one.
    await mcp.selectTool("echo");
    await expect(mcp.outcome).toHaveCount(0);
    await expect(mcp.content).toHaveCount(0);
  });
});
