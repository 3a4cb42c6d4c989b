import { expect, type Locator, type Page } from "@playwright/test";

type InspectTab = "Tools" | "Resources" | "Prompts";

/** The Tools | Resources | Prompts area of the MCP workbench, with the tool lint; selectors by role, label and test id. */
export class McpInspectPage {
  readonly page: Page;
  readonly tabs: Locator;
  readonly tools: Locator;
  readonly lint: Locator;
  readonly lintSummary: Locator;
  readonly lintCompiles: Locator;
  readonly resources: Locator;
  readonly templates: Locator;
  readonly resourceCount: Locator;
  readonly read: Locator;
  readonly readResult: Locator;
  readonly contents: Locator;
  readonly resourceRaw: Locator;
  readonly templateUri: Locator;
  readonly subscribe: Locator;
  readonly updates: Locator;
  readonly prompts: Locator;
  readonly promptForm: Locator;
  readonly getPrompt: Locator;
  readonly promptMessages: Locator;
  readonly promptRaw: Locator;

  constructor(page: Page) {
    this.page = page;
    this.tabs = page.getByRole("tablist", { name: "Inspect" });
    this.tools = page.getByRole("listbox", { name: "Tools", exact: true });
    this.lint = page.getByRole("region", { name: "Schema lint" });
    this.lintSummary = page.getByTestId("mcp-lint-summary");
    this.lintCompiles = page.getByTestId("mcp-lint-compiles");
    this.resources = page.getByRole("listbox", { name: "Resources", exact: true });
    this.templates = page.getByRole("listbox", { name: "Resource templates" });
    this.resourceCount = page.getByTestId("mcp-resource-count");
    this.read = page.getByRole("button", { name: "Read", exact: true });
    this.readResult = page.getByRole("region", { name: "Read result" });
    this.contents = page.getByRole("list", { name: "Resource contents" });
    this.resourceRaw = page.getByTestId("mcp-resource-raw");
    this.templateUri = page.getByTestId("mcp-template-uri");
    this.subscribe = page.getByRole("button", { name: /^(Subscribe|Unsubscribe)$/ });
    this.updates = page.getByRole("region", { name: "Resource updates" });
    this.prompts = page.getByRole("listbox", { name: "Prompts", exact: true });
    this.promptForm = page.getByRole("form", { name: "Prompt arguments" });
    this.getPrompt = this.promptForm.getByRole("button", { name: "Get prompt" });
    this.promptMessages = page.getByRole("list", { name: "Prompt messages" });
    this.promptRaw = page.getByTestId("mcp-prompt-raw");
  }

  tab(name: InspectTab): Locator {
    return this.tabs.getByRole("tab", { name: new RegExp(`^${name}\\b`) });
  }

  async openTab(name: InspectTab): Promise<void> {
    await this.tab(name).click();
    await expect(this.tab(name)).toHaveAttribute("aria-selected", "true");
  }

  /** Selects the resource whose row shows `text` (its name or URI). */
  async selectResource(text: string | RegExp): Promise<void> {
    await this.resources.getByRole("option").filter({ hasText: text }).first().click();
  }

  async selectTemplate(text: string | RegExp): Promise<void> {
    await this.templates.getByRole("option").filter({ hasText: text }).first().click();
  }

  async selectPrompt(name: string): Promise<void> {
    await this.prompts.getByRole("option").filter({ hasText: new RegExp(`^${name}\\b`) }).first().click();
    await expect(this.page.getByTestId("mcp-prompt-name")).toHaveText(name);
  }
}
