import { expect, type Locator, type Page } from "@playwright/test";
import { McpPage } from "./mcp-page.ts";

/** The MCP workbench's era, input rounds and tasks, on top of the workbench page. */
export class McpErasPage {
  readonly mcp: McpPage;
  readonly page: Page;
  readonly era: Locator;
  readonly eraSetting: Locator;
  readonly eraReason: Locator;
  readonly url: Locator;
  readonly rounds: Locator;
  readonly runAsTask: Locator;
  readonly tasks: Locator;

  constructor(page: Page) {
    this.page = page;
    this.mcp = new McpPage(page);
    this.eraSetting = page.getByTestId("mcp-era-setting");
    this.era = page.getByTestId("mcp-era");
    this.eraReason = page.getByTestId("mcp-era-reason");
    this.url = this.mcp.connection.getByLabel("Server URL");
    this.rounds = page.getByTestId("mcp-input-rounds");
    this.runAsTask = page.getByRole("form", { name: "Tool call" }).getByRole("button", { name: "Run as task" });
    this.tasks = page.getByRole("region", { name: "Tasks" });
  }

  async connectHttp(url: string, era?: "auto" | "legacy" | "modern"): Promise<void> {
    await this.mcp.transport.selectOption("streamable-http");
    await this.url.fill(url);
    if (era !== undefined) await this.eraSetting.selectOption(era);
    await this.mcp.connectButton.click();
    await expect(this.mcp.state).toHaveText("connected", { timeout: 20_000 });
  }

  async openTasks(): Promise<void> {
    await this.page.getByRole("tab", { name: /^Tasks/ }).click();
  }

  task(id: string): Locator {
    return this.tasks.getByTestId("mcp-task").filter({ hasText: id });
  }
}
