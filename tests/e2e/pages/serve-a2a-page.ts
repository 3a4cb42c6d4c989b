import { expect, type Locator, type Page } from "@playwright/test";

/** The A2A surface of the Serve workbench; selectors by role, label and test id. */
export class ServeA2aPage {
  readonly page: Page;
  readonly form: Locator;
  readonly port: Locator;
  readonly confirm: Locator;
  readonly textSkill: Locator;
  readonly start: Locator;
  readonly stop: Locator;
  readonly state: Locator;
  readonly cardLink: Locator;
  readonly jsonRpcUrl: Locator;
  readonly restUrl: Locator;
  readonly tasks: Locator;
  readonly traffic: Locator;
  readonly servedSet: Locator;

  constructor(page: Page) {
    this.page = page;
    this.form = page.getByRole("form", { name: "A2A surface" });
    this.port = this.form.getByLabel("Port");
    this.confirm = this.form.getByLabel("Confirm");
    this.textSkill = this.form.getByLabel("Text messages run");
    this.start = this.form.getByRole("button", { name: "Start A2A" });
    this.stop = this.form.getByRole("button", { name: "Stop A2A" });
    this.state = page.getByTestId("a2a-surface-state");
    this.cardLink = page.getByTestId("a2a-card-url");
    this.jsonRpcUrl = page.getByTestId("a2a-jsonrpc-url");
    this.restUrl = page.getByTestId("a2a-rest-url");
    this.tasks = page.getByTestId("a2a-tasks");
    this.traffic = page.getByTestId("a2a-traffic");
    this.servedSet = page.getByRole("region", { name: "Served over A2A" });
  }

  /** Starts the agent and returns its card URL once the page shows it. */
  async startAgent(port: string): Promise<string> {
    await this.port.fill(port);
    await this.start.click();
    await expect(this.state).toHaveText("running");
    await expect(this.cardLink).toHaveText(/^http:\/\/127\.0\.0\.1:\d+\/\.well-known\/agent-card\.json$/);
    return (await this.cardLink.textContent()) ?? "";
  }
}
