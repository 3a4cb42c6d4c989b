/**
 * OAuth from the MCP workbench against the local authorization server and its protected MCP
 * server (tests/helpers/oauth-server): the 401, the flow step by step with a popup approval,
 * masked tokens, the tool call, a forced expiry refreshed and retried; the pasted redirect with a
 * forged state refused; and failures named in the page.
 */
import { expect, test } from "../fixtures.ts";
import { McpPage } from "../pages/mcp-page.ts";
import { OAuthPanelPage } from "../pages/oauth-page.ts";
import { startOAuthSetup, type OAuthTestSetup } from "../../helpers/oauth-server/index.ts";

let as: OAuthTestSetup;
test.beforeAll(async () => {
  as = await startOAuthSetup();
});
test.afterAll(async () => {
  await as.close();
});
test.beforeEach(() => as.reset());

async function connectAndSee401(mcp: McpPage): Promise<void> {
  await mcp.transport.selectOption("streamable-http");
  await mcp.connection.getByLabel("Server URL").fill(as.mcpUrl);
  await mcp.connectButton.click();
  await expect(mcp.failure).toBeVisible({ timeout: 20_000 });
  await expect(mcp.page.getByTestId("mcp-failed-step")).toHaveText("http");
  await expect(mcp.failure).toContainText("HTTP 401");
  await mcp.failure.getByRole("button", { name: "Authorize with OAuth…" }).click();
}

test.describe("OAuth in the MCP workbench", () => {
  // Each test opens popups and the Monaco editor; on a busy machine that alone takes half a minute.
  test.describe.configure({ timeout: 120_000 });

  test("step by step with a popup, masked tokens, the call, then an expired token refreshed and the call retried", async ({ page, app }) => {
    as.set({ consent: "page" });
    const mcp = new McpPage(page);
    const oauth = new OAuthPanelPage(page);
    await mcp.open(app.url);
    await connectAndSee401(mcp);
    await expect(oauth.notice).toContainText('resource_metadata="');

    for (const id of ["probe", "resource-metadata", "auth-server-metadata", "registration"]) {
      await oauth.nextStep.click();
      await expect(oauth.step(id)).toHaveAttribute("data-verdict", "ok");
    }
    // Each exchange is there raw: the probe's request and its 401 with the challenge.
    const probe = oauth.step("probe").getByTestId("oauth-exchange");
    await probe.locator("summary").click();
    await expect(probe.getByTestId("oauth-request")).toContainText(`POST ${as.mcpUrl}`);
    await expect(probe.getByTestId("oauth-response")).toContainText("HTTP 401");
    await expect(probe.getByTestId("oauth-response")).toContainText("www-authenticate: Bearer");

    await oauth.nextStep.click();
    await expect(oauth.step("authorization")).toHaveAttribute("data-verdict", "waiting");
    const popupOpened = page.waitForEvent("popup");
    await oauth.openAuthorization.click();
    const popup = await popupOpened;
    await expect(popup.locator("#scopes")).toHaveText("mcp:read");
    const closed = popup.waitForEvent("close");
    await popup.getByRole("button", { name: "Approve" }).click();
    await closed;

    await expect(oauth.step("token")).toHaveAttribute("data-verdict", "ok");
    await expect(oauth.step("mcp-retry")).toHaveAttribute("data-verdict", "ok");
    await expect(oauth.step("authorization")).toHaveAttribute("data-verdict", "ok");
    // Secrets masked: the token fields and the exchanges, until revealed.
    await expect(oauth.accessToken).toHaveText(/^•••• \(\d+ chars\)$/);
    await expect(oauth.refreshToken).toHaveText(/^•••• \(\d+ chars\)$/);
    const tokenExchange = oauth.step("token").getByTestId("oauth-exchange");
    await tokenExchange.locator("summary").click();
    await expect(tokenExchange.getByTestId("oauth-request")).toContainText("code_verifier=•••• (43 chars)");
    await expect(tokenExchange.getByTestId("oauth-response")).toContainText('"access_token":"•••• (');
    await oauth.revealAccessToken.click();
    await expect(oauth.accessToken).not.toContainText("••••");
    const token = (await oauth.accessToken.textContent()) ?? "";
    expect(as.as.tokens.has(token)).toBe(true);
    await oauth.revealAccessToken.click();
    await expect(oauth.accessToken).toHaveText(/^•••• /);

    // The workbench connected with the token by itself.
    await expect(mcp.state).toHaveText("connected", { timeout: 20_000 });
    await mcp.call("whoami", "{}");
    await expect(mcp.outcome).toHaveText("Success");
    await expect(mcp.content).toContainText("hello client-");

    // Forced expiry: the call gets 401, the token is refreshed, the call goes again and succeeds.
    as.expireAccessTokens();
    const before = as.resourceRequests.length;
    await mcp.send.click();
    await expect(oauth.step("refresh")).toHaveAttribute("data-verdict", "ok", { timeout: 20_000 });
    await expect(oauth.notice).toContainText("refreshed the token and connected again");
    await expect(mcp.state).toHaveText("connected");
    await expect(mcp.outcome).toHaveText("Success", { timeout: 20_000 });
    await expect(mcp.content).toContainText("hello client-");
    const after = as.resourceRequests.slice(before).filter((r) => r.method === "POST" && r.body.includes('"tools/call"'));
    expect(after.length).toBeGreaterThanOrEqual(2);
    await expect(oauth.accessToken).toHaveText(/^•••• /);
    await oauth.revealAccessToken.click();
    await expect(oauth.accessToken).not.toHaveText(token);
    const fresh = (await oauth.accessToken.textContent()) ?? "";
    expect(as.as.tokens.get(fresh)?.expiresAt ?? 0).toBeGreaterThan(Date.now());
  });

  test("the pasted redirect: a forged state refused with nothing exchanged, the right one taken; failures named", async ({ page, app }) => {
    const mcp = new McpPage(page);
    const oauth = new OAuthPanelPage(page);
    await mcp.open(app.url);
    await connectAndSee401(mcp);
    await oauth.runToAuthorization.click();
    await expect(oauth.step("authorization")).toHaveAttribute("data-verdict", "waiting");

    // Approved elsewhere (auto-consent): the address the browser would end on.
    const url = (await oauth.authorizationUrl.getAttribute("href")) ?? "";
    const answer = await fetch(url, { redirect: "manual" });
    const redirect = answer.headers.get("location") ?? "";
    expect(redirect).toContain("/oauth/callback?code=");
    const forged = new URL(redirect);
    forged.searchParams.set("state", "forged-state");
    await oauth.pasted.fill(forged.href);
    await oauth.usePasted.click();
    await expect(oauth.failure).toContainText("Failed at: Authorization (PKCE S256)");
    await expect(oauth.failure).toContainText("state does not match");
    await expect(oauth.pasted).toHaveValue(forged.href);
    expect(as.authRequests.filter((r) => r.path === "/token")).toHaveLength(0);

    await oauth.pasted.fill(redirect);
    await oauth.usePasted.click();
    await expect(oauth.step("mcp-retry")).toHaveAttribute("data-verdict", "ok");
    await expect(oauth.failure).toHaveCount(0);
    await expect(mcp.state).toHaveText("connected", { timeout: 20_000 });

    // An authorization server without S256: named at its step.
    await mcp.connectButton.click();
    await expect(mcp.state).toHaveText("idle");
    await oauth.startOver.click();
    as.set({ asBroken: "no-s256" });
    await oauth.runToAuthorization.click();
    await expect(oauth.failure).toContainText("Failed at: Authorization-server metadata (RFC 8414)");
    await expect(oauth.failure).toContainText("code_challenge_methods_supported (plain) lacks S256");
    await expect(oauth.step("auth-server-metadata")).toHaveAttribute("data-verdict", "fail");

    // A user who says no at the consent page: error=access_denied, named.
    as.set({ asBroken: undefined, consent: "page" });
    await oauth.runToAuthorization.click();
    await expect(oauth.step("authorization")).toHaveAttribute("data-verdict", "waiting");
    const popupOpened = page.waitForEvent("popup");
    await oauth.openAuthorization.click();
    const popup = await popupOpened;
    const closed = popup.waitForEvent("close");
    await popup.getByRole("button", { name: "Deny" }).click();
    await closed;
    await expect(oauth.failure).toContainText("the authorization server answered error=access_denied (The user said no)");
  });

  test("a 403 insufficient_scope: authorize again for the scope it names, and the call goes again", async ({ page, app }) => {
    as.set({ consent: "page" });
    const mcp = new McpPage(page);
    const oauth = new OAuthPanelPage(page);
    await mcp.open(app.url);
    await mcp.transport.selectOption("streamable-http");
    await mcp.connection.getByLabel("Server URL").fill(as.mcpUrl);
    // Straight from the form, before any connection attempt.
    await mcp.connection.getByRole("button", { name: "Get a token with OAuth…" }).click();
    await oauth.runToAuthorization.click();
    let popupOpened = page.waitForEvent("popup");
    await oauth.openAuthorization.click();
    let popup = await popupOpened;
    await popup.getByRole("button", { name: "Approve" }).click();
    await expect(mcp.state).toHaveText("connected", { timeout: 20_000 });

    await mcp.call("write-note", '{"text":"hi"}');
    await expect(oauth.notice).toContainText("403 insufficient_scope, asking for scope mcp:read mcp:write", { timeout: 20_000 });
    await oauth.panel.getByRole("button", { name: "Authorize again" }).click();
    await expect(oauth.step("authorization")).toHaveAttribute("data-verdict", "waiting");
    expect(new URL((await oauth.authorizationUrl.getAttribute("href")) ?? "").searchParams.get("scope")).toBe("mcp:read mcp:write");
    popupOpened = page.waitForEvent("popup");
    await oauth.openAuthorization.click();
    popup = await popupOpened;
    await expect(popup.locator("#scopes")).toHaveText("mcp:read mcp:write");
    await popup.getByRole("button", { name: "Approve" }).click();
    await expect(page.getByTestId("oauth-scope")).toHaveText("mcp:read mcp:write");
    await expect(mcp.outcome).toHaveText("Success", { timeout: 20_000 });
    await expect(mcp.content).toContainText("noted: hi");
  });
});
