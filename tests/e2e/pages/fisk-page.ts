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

  constructor(page: Page) {
    this.page = page;
    this.nats = new NatsPage(page);
    this.toolInput = new EditorPage(page, "Tool input");
    this.timeline = page.getByRole("region", { name: "Reply set" }).getByRole("list", { name: "Timeline" });
    this.outcome = page.getByTestId("tool-outcome");
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
