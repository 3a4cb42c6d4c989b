import { readFile } from "node:fs/promises";
import { expect, type Locator, type Page } from "@playwright/test";
import { McpPage } from "./mcp-page.ts";

/** The saved-servers part of the MCP connection form: pick, save, delete, import and export. */
export class McpServersPage {
  readonly page: Page;
  readonly mcp: McpPage;
  readonly region: Locator;
  readonly saved: Locator;
  readonly saveAs: Locator;
  readonly save: Locator;
  readonly remove: Locator;
  readonly saveSecrets: Locator;
  readonly importExport: Locator;
  readonly importText: Locator;
  readonly importButton: Locator;
  readonly importFile: Locator;
  readonly exportAs: Locator;
  readonly exportButton: Locator;
  readonly exportSecrets: Locator;
  readonly notes: Locator;
  readonly status: Locator;
  readonly alert: Locator;
  readonly bearerToken: Locator;
  readonly connectVia: Locator;
  readonly serverUrl: Locator;
  readonly envValue: (n: number) => Locator;

  constructor(page: Page) {
    this.page = page;
    this.mcp = new McpPage(page);
    this.region = page.getByRole("region", { name: "Saved servers" });
    this.saved = this.region.getByLabel("Saved servers");
    this.saveAs = this.region.getByLabel("Save as");
    this.save = this.region.getByRole("button", { name: "Save", exact: true });
    this.remove = this.region.getByRole("button", { name: "Delete" });
    this.saveSecrets = this.region.getByLabel("Also save secret values");
    this.importExport = this.region.getByText("Import or export mcpServers JSON");
    this.importText = this.region.getByLabel("Paste or drop a Claude Desktop, Cursor or VS Code config");
    this.importButton = this.region.getByRole("button", { name: "Import", exact: true });
    this.importFile = this.region.getByLabel("…or choose a file");
    this.exportAs = this.region.getByLabel("Export as");
    this.exportButton = this.region.getByRole("button", { name: "Export saved servers" });
    this.exportSecrets = this.region.getByLabel("Include the secret values this tab knows");
    this.notes = this.region.getByRole("list", { name: "Import notes" });
    this.status = this.region.getByRole("status");
    this.alert = this.region.getByRole("alert");
    this.bearerToken = this.mcp.connection.getByLabel("Bearer token");
    this.connectVia = this.mcp.connection.getByLabel("Connect via");
    this.serverUrl = this.mcp.connection.getByLabel("Server URL");
    this.envValue = (n) => this.mcp.connection.getByLabel(`Environment variable ${n} value`);
  }

  /** Opens the import/export part once; it starts folded. */
  async openImportExport(): Promise<void> {
    if (!(await this.importText.isVisible())) await this.importExport.click();
    await expect(this.importText).toBeVisible();
  }

  async importJson(text: string): Promise<void> {
    await this.openImportExport();
    await this.importText.fill(text);
    await this.importButton.click();
  }

  async pick(name: string): Promise<void> {
    await this.saved.selectOption(name);
    await expect(this.status).toContainText(`loaded "${name}"`);
  }

  /** Exports the saved list in the given flavour and returns the downloaded file. */
  async export(flavour: "claude" | "cursor" | "vscode"): Promise<{ name: string; text: string }> {
    await this.openImportExport();
    await this.exportAs.selectOption(flavour);
    const [download] = await Promise.all([this.page.waitForEvent("download"), this.exportButton.click()]);
    return { name: download.suggestedFilename(), text: await readFile(await download.path(), "utf8") };
  }
}
