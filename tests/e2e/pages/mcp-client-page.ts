import { expect, type Locator, type Page } from "@playwright/test";
import { McpPage } from "./mcp-page.ts";

/** The MCP workbench's client side: capabilities, call options and progress, sampling, roots, log and ping. */
export class McpClientPage {
  readonly page: Page;
  readonly mcp: McpPage;
  readonly capabilities: Locator;
  readonly callOptionsToggle: Locator;
  readonly meta: Locator;
  readonly timeLimit: Locator;
  readonly progress: Locator;
  readonly progressText: Locator;
  readonly cancel: Locator;
  /** The dialog that answers a server's sampling/createMessage. */
  readonly sampling: Locator;
  readonly samplingAnswer: Locator;
  readonly roots: Locator;
  readonly log: Locator;
  readonly logLevel: Locator;
  readonly setLevel: Locator;
  readonly showFrom: Locator;
  readonly logMessages: Locator;
  readonly ping: Locator;
  readonly pingResult: Locator;

  constructor(page: Page) {
    this.page = page;
    this.mcp = new McpPage(page);
    this.capabilities = page.getByRole("group", { name: "Client capabilities" });
    const call = page.getByRole("form", { name: "Tool call" });
    this.callOptionsToggle = call.getByText("Call options: _meta, progress, time limit");
    this.meta = call.getByLabel("Request _meta (JSON object)");
    this.timeLimit = call.getByLabel("Time limit for this call (s)");
    this.progress = call.getByRole("progressbar", { name: "Call progress" });
    this.progressText = call.getByTestId("mcp-call-progress");
    this.cancel = call.getByRole("button", { name: "Cancel" });
    this.sampling = page.getByRole("dialog", { name: "Sampling request from the server" });
    this.samplingAnswer = this.sampling.getByLabel("Answer (CreateMessageResult JSON)");
    this.roots = page.getByRole("form", { name: "Roots" });
    this.log = page.getByRole("region", { name: "Server log" });
    this.logLevel = this.log.getByLabel("Level to ask the server for");
    this.setLevel = this.log.getByRole("button", { name: "Set level" });
    this.showFrom = this.log.getByLabel("Show from");
    this.logMessages = this.log.getByRole("log", { name: "Log messages" }).getByRole("listitem");
    this.ping = page.getByRole("button", { name: "Ping" });
    this.pingResult = page.getByTestId("mcp-ping-result");
  }

  capability(name: "Elicitation" | "Sampling" | "Roots"): Locator {
    return this.capabilities.getByRole("checkbox", { name: new RegExp(`^${name} `) });
  }

  /** Fills root row `index` (0-based), adding rows as needed. */
  async setRoot(index: number, uri: string, name = ""): Promise<void> {
    const uris = this.roots.getByRole("textbox", { name: /^Root \d+ URI$/ });
    while ((await uris.count()) <= index) await this.roots.getByRole("button", { name: "Add root" }).click();
    await this.roots.getByLabel(`Root ${index + 1} URI`).fill(uri);
    await this.roots.getByLabel(`Root ${index + 1} name`).fill(name);
  }

  async applyRoots(): Promise<void> {
    await this.roots.getByRole("button", { name: "Apply roots" }).click();
  }

  /** Opens the call options (a disclosure) if closed. */
  async openCallOptions(): Promise<void> {
    if (!(await this.meta.isVisible())) await this.callOptionsToggle.click();
    await expect(this.meta).toBeVisible();
  }

  /** The progress bar's current value (0 when indeterminate). */
  progressValue(): Promise<number> {
    return this.progress.evaluate((e) => (e as HTMLProgressElement).value);
  }
}
