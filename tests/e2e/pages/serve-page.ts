import { expect, type Locator, type Page } from "@playwright/test";
import { onTab } from "./tab-url.ts";

/** The Serve workbench, reached through its tab; selectors by role, label and test id. */
export class ServePage {
  readonly page: Page;
  readonly mcp: Locator;
  readonly mcpPort: Locator;
  readonly mcpMode: Locator;
  readonly mcpFixtures: Locator;
  readonly mcpStart: Locator;
  readonly mcpStop: Locator;
  readonly mcpState: Locator;
  readonly mcpUrl: Locator;
  readonly mcpSessions: Locator;
  readonly mcpTraffic: Locator;
  readonly nats: Locator;
  readonly natsGen1: Locator;
  readonly natsStart: Locator;
  readonly natsStop: Locator;
  readonly natsState: Locator;
  readonly natsSubjects: Locator;
  readonly mcpSet: Locator;
  readonly natsSet: Locator;
  readonly snippets: Locator;
  readonly approvals: Locator;
  readonly approvalsHeading: Locator;
  readonly pending: Locator;

  constructor(page: Page) {
    this.page = page;
    this.mcp = page.getByRole("form", { name: "MCP surface" });
    this.mcpPort = this.mcp.getByLabel("Port");
    this.mcpMode = this.mcp.getByLabel("Confirm mode");
    this.mcpFixtures = this.mcp.getByLabel("Conformance fixtures");
    this.mcpStart = this.mcp.getByRole("button", { name: "Start MCP" });
    this.mcpStop = this.mcp.getByRole("button", { name: "Stop MCP" });
    this.mcpState = page.getByTestId("mcp-surface-state");
    this.mcpUrl = page.getByTestId("mcp-url");
    this.mcpSessions = page.getByTestId("mcp-sessions");
    this.mcpTraffic = page.getByTestId("mcp-traffic");
    this.nats = page.getByRole("form", { name: "NATS surface" });
    this.natsGen1 = this.nats.getByLabel(/Gen 1 replies/);
    this.natsStart = this.nats.getByRole("button", { name: "Start NATS" });
    this.natsStop = this.nats.getByRole("button", { name: "Stop NATS" });
    this.natsState = page.getByTestId("nats-surface-state");
    this.natsSubjects = page.getByTestId("nats-subjects");
    this.mcpSet = page.getByRole("region", { name: "Served over MCP" });
    this.natsSet = page.getByRole("region", { name: "Served over NATS (fisk-ai)" });
    this.snippets = page.getByRole("region", { name: "Client snippets" });
    this.approvals = page.getByRole("region", { name: "Approvals" });
    this.approvalsHeading = this.approvals.getByRole("heading", { name: "Approvals" });
    this.pending = page.getByRole("list", { name: "Pending approvals" }).getByRole("listitem");
  }

  async open(url: string): Promise<void> {
    await this.page.goto(onTab(url, "serve"));
    await this.page.getByRole("tab", { name: "Serve" }).click();
    await expect(this.mcp).toBeVisible();
  }

  /** Back to this workbench from another tab. */
  async reopen(): Promise<void> {
    await this.page.getByRole("tab", { name: "Serve" }).click();
    await expect(this.mcp).toBeVisible();
  }

  /** Saves the editor's toolkit to the workspace under `name`. */
  async saveAs(name: string): Promise<void> {
    await this.page.getByLabel("Save as").fill(name);
    await this.page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(this.page.getByRole("status").filter({ hasText: `saved "${name}"` })).toBeVisible();
  }

  snippet(title: string): Locator {
    return this.snippets.getByLabel(title, { exact: true });
  }

  /** Starts the MCP surface and returns its URL once the page shows it. */
  async startMcp(options: { port: string; mode: string }): Promise<string> {
    await this.mcpPort.fill(options.port);
    await this.mcpMode.selectOption(options.mode);
    await this.mcpStart.click();
    await expect(this.mcpState).toHaveText("running");
    await expect(this.mcpUrl).toHaveText(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    return (await this.mcpUrl.textContent()) ?? "";
  }

  approval(tool: string): Locator {
    return this.page.getByRole("list", { name: "Pending approvals" }).getByRole("listitem", { name: `Approval for ${tool}`, exact: true });
  }
}
