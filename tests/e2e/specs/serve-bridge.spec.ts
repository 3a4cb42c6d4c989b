import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { BackendClient } from "../../../src/core/backend/backend-client.ts";
import { expect, test } from "../fixtures.ts";
import { ServePage } from "../pages/serve-page.ts";

/**
 * The Serve workbench's bridge switch: the MCP surface serves the fisk-ai agent the console serves
 * on its own nats-server (the demo agent, so every name clashes with the editor's demo toolkit and
 * is prefixed), an SDK client calls a bridged tool, and an agent nobody serves is refused in words.
 */

const AGENT = "patchbay-demo";

test.describe("Serve workbench, bridging fisk-ai agents to MCP", () => {
  let backend: BackendClient;
  let client: Client | undefined;

  test.beforeEach(async ({ app }) => {
    backend = new BackendClient({ fetch, token: app.token, baseUrl: app.origin });
    await backend.call("POST", "/serve/mcp/stop", {});
    await backend.call("POST", "/serve/nats/stop", {});
  });

  test.afterEach(async () => {
    await client?.close().catch(() => undefined);
    // The backend outlives this spec: leave nothing serving.
    await backend.call("POST", "/serve/mcp/stop", {}).catch(() => undefined);
    await backend.call("POST", "/serve/nats/stop", {}).catch(() => undefined);
  });

  test("the switch serves the agent's tools, prefixed where the toolkit has the name, and a call reaches the agent", async ({ page, app }) => {
    await backend.call("POST", "/serve/nats/start", {});
    const serve = new ServePage(page);
    await serve.open(app.url);
    const bridging = serve.mcp.getByLabel("Bridge fisk-ai agents");
    await bridging.focus();
    await page.keyboard.press("Space");
    await expect(bridging).toBeChecked();
    await serve.mcp.getByLabel("Agent identities").fill(AGENT);
    await serve.mcp.getByLabel("Except tools matching").fill("^slow$");
    const url = await serve.startMcp({ port: "0", mode: "auto" });
    await expect(page.getByTestId("mcp-bridged")).toHaveText(`5 tools from ${AGENT}: ${AGENT}_add, ${AGENT}_echo, ${AGENT}_fail, ${AGENT}_large-output, ${AGENT}_sleep`);
    await expect(serve.mcpSet.getByText(`bridged from fisk-ai agent ${AGENT} (its echo)`)).toBeVisible();

    client = new Client({ name: "patchbay-e2e", version: "0.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const result = await client.callTool({ name: `${AGENT}_echo`, arguments: { message: "over the bridge" } });
    expect((result.content as { text: string }[])[0]?.text).toBe("over the bridge");
  });

  test("an agent nobody serves is refused next to the form, and nothing starts", async ({ page, app }) => {
    const serve = new ServePage(page);
    await serve.open(app.url);
    await serve.mcp.getByLabel("Bridge fisk-ai agents").check();
    await serve.mcp.getByLabel("Agent identities").fill("nobody-serves-this");
    await serve.mcpPort.fill("0");
    await serve.mcpStart.click();
    await expect(serve.mcp.getByRole("alert")).toContainText("cannot bridge nobody-serves-this: no agent answers discovery on choria.fisk-ai.discovery.nobody-serves-this");
    await expect(serve.mcpState).toHaveText("stopped");
  });
});
