import { expect, type Locator, type Page } from "@playwright/test";
import { EditorPage } from "./editor-page.ts";
import { NatsPage } from "./nats-page.ts";

/** The fisk-ai panels of the NATS workbench; selectors by role and label only. */
export class FiskPage {
  readonly page: Page;
  readonly nats: NatsPage;
  readonly toolInput: EditorPage;
  readonly timeline: Locator;
  readonly outcome: Locator;
  /** The headline's block: its tone is in `data-tone` (ok, warn, bad). */
  readonly outcomeBlock: Locator;
  readonly evidence: Locator;
  readonly callForm: Locator;

  constructor(page: Page) {
    this.page = page;
    this.nats = new NatsPage(page);
    this.toolInput = new EditorPage(page, "Tool input");
    this.timeline = page.getByRole("region", { name: "Reply set" }).getByRole("list", { name: "Timeline" });
    this.outcome = page.getByTestId("tool-outcome");
    this.outcomeBlock = page.getByTestId("tool-outcome-block");
    this.evidence = page.getByRole("table", { name: "Outcome evidence" });
    this.callForm = page.getByRole("form", { name: "Tool call" });
  }

  /** Discovers an agent by name in the Agents tab and waits for its card. */
  async discover(identity: string): Promise<void> {
    await this.openTab("Agents");
    const form = this.page.getByRole("form", { name: "Discover an agent" });
    await form.getByLabel("Agent identity").fill(identity);
    await form.getByRole("button", { name: "Discover" }).click();
    await expect(this.page.getByTestId("agent-summary")).toContainText(`Card of ${identity}`);
  }

  /** From the Agents tab: a tool's Call button, then the input pasted in and sent. */
  async call(tool: string, input: string): Promise<void> {
    await this.page.getByRole("list", { name: "Tools" }).getByRole("button", { name: `Call ${tool}`, exact: true }).click();
    await this.toolInput.waitReady();
    await this.toolInput.replaceText(input);
    await this.send();
  }

  /** Sends the tool call as it stands in the form. */
  async send(): Promise<void> {
    await this.callForm.getByRole("button", { name: "Send", exact: true }).click();
  }

  /** Picks a tool in the form's select, staying on the Tool call tab. */
  async chooseTool(tool: string, input?: string): Promise<void> {
    await this.callForm.getByRole("combobox", { name: /^Tool\b/ }).selectOption(tool);
    if (input !== undefined) {
      await this.toolInput.waitReady();
      await this.toolInput.replaceText(input);
    }
  }

  /** Expects the outcome's headline and colour. */
  async expectOutcome(headline: string | RegExp, tone: "ok" | "warn" | "bad"): Promise<void> {
    await expect(this.outcome).toHaveText(headline);
    await expect(this.outcomeBlock).toHaveAttribute("data-tone", tone);
  }

  /** Opens the app, connects to its managed NATS over WebSocket and waits for "connected". */
  async openConnected(url: string): Promise<void> {
    await this.nats.open(url);
    await this.nats.connect();
    await expect(this.nats.state).toHaveText("connected");
  }

  tab(name: "Request" | "Agents" | "Tool call" | "Tasks" | "Tap" | "Import preview"): Locator {
    return this.page.getByRole("tablist", { name: "NATS tools" }).getByRole("tab", { name, exact: true });
  }

  async openTab(name: Parameters<FiskPage["tab"]>[0]): Promise<void> {
    await this.tab(name).click();
    await expect(this.tab(name)).toHaveAttribute("aria-selected", "true");
  }

  /** The timeline row of one disposition (ack, keepalive, terminal (final), …). */
  timelineRow(disposition: string): Locator {
    return this.timeline.locator(`li[data-disposition="${disposition}"]`);
  }

  /** The verdict badge on the summary line of one disposition's timeline row. */
  timelineVerdict(disposition: string): Locator {
    return this.timelineRow(disposition).locator("summary [data-verdict]");
  }

  /** The verdict badge of the request the tool call sent. */
  get requestVerdict(): Locator {
    return this.page.getByRole("group", { name: "Request sent" }).locator("summary [data-verdict]");
  }
}
