import type { Locator, Page } from "@playwright/test";

/** The OAuth panel of the MCP workbench. */
export class OAuthPanelPage {
  readonly panel: Locator;
  readonly nextStep: Locator;
  readonly runToAuthorization: Locator;
  readonly startOver: Locator;
  readonly failure: Locator;
  readonly notice: Locator;
  readonly openAuthorization: Locator;
  readonly authorizationUrl: Locator;
  readonly pasted: Locator;
  readonly usePasted: Locator;
  readonly accessToken: Locator;
  readonly refreshToken: Locator;
  readonly revealAccessToken: Locator;
  readonly revealExchanges: Locator;

  constructor(page: Page) {
    this.panel = page.getByRole("region", { name: "OAuth" });
    this.nextStep = this.panel.getByRole("button", { name: /^Next step: / });
    this.runToAuthorization = this.panel.getByRole("button", { name: "Run to the authorization" });
    this.startOver = this.panel.getByRole("button", { name: "Start over" });
    this.failure = this.panel.getByTestId("oauth-failure");
    this.notice = this.panel.getByTestId("oauth-notice");
    this.openAuthorization = this.panel.getByRole("button", { name: "Open the authorization page" });
    this.authorizationUrl = this.panel.getByTestId("oauth-authorization-url");
    this.pasted = this.panel.getByLabel(/Or paste the redirect URL/);
    this.usePasted = this.panel.getByRole("button", { name: "Use this redirect" });
    this.accessToken = this.panel.getByTestId("oauth-access-token");
    this.refreshToken = this.panel.getByTestId("oauth-refresh-token");
    this.revealAccessToken = this.panel.getByRole("button", { name: /^(Reveal|Hide) access token$/ });
    this.revealExchanges = this.panel.getByLabel("Reveal secrets in the exchanges");
  }

  /** The latest record of a step. */
  step(id: string): Locator {
    return this.panel.locator(`[data-testid="oauth-step"][data-step="${id}"]`).last();
  }

  verdict(id: string): Locator {
    return this.step(id);
  }
}
