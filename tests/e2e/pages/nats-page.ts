import { expect, type Locator, type Page } from "@playwright/test";
import { EditorPage } from "./editor-page.ts";
import { onTab } from "./tab-url.ts";

/** The NATS workbench, reached through its tab; selectors by role and label only. */
export class NatsPage {
  readonly page: Page;
  readonly serverUrl: Locator;
  readonly connectButton: Locator;
  readonly state: Locator;
  readonly subject: Locator;
  readonly payload: EditorPage;
  readonly connection: Locator;
  readonly send: Locator;
  readonly replyTitle: Locator;
  readonly replyRtt: Locator;
  readonly replyBody: Locator;
  readonly replyHeaders: Locator;

  constructor(page: Page) {
    this.page = page;
    const connection = page.getByRole("form", { name: "Connection" });
    const request = page.getByRole("form", { name: "Request" });
    this.serverUrl = connection.getByLabel("Server URL");
    this.connectButton = connection.getByRole("button", { name: /^(Connect|Connecting…|Disconnect|Retry)$/ });
    this.state = page.getByTestId("nats-state");
    this.subject = request.getByLabel("Subject");
    this.payload = new EditorPage(page, "Payload");
    this.connection = connection;
    this.send = request.getByRole("button", { name: "Send request" });
    this.replyTitle = page.getByTestId("reply-title");
    this.replyRtt = page.getByTestId("reply-rtt");
    this.replyBody = page.getByTestId("reply-body");
    this.replyHeaders = page.getByRole("table", { name: "Reply headers" });
  }

  async open(url: string): Promise<void> {
    await this.page.goto(onTab(url, "nats"));
    await this.page.getByRole("tab", { name: "NATS" }).click();
    await expect(this.serverUrl).toBeVisible();
  }

  /** Connects to `serverUrl`, or to the URL the page filled in: the managed server's comes with the backend's status, and a person clicks once it shows. */
  async connect(serverUrl?: string): Promise<void> {
    if (serverUrl !== undefined) await this.serverUrl.fill(serverUrl);
    else await expect(this.serverUrl).toHaveValue(/^wss?:\/\//);
    await this.connectButton.click();
  }

  async setHeader(index: number, name: string, value: string): Promise<void> {
    await this.page.getByLabel(`Header ${index} name`).fill(name);
    await this.page.getByLabel(`Header ${index} value`).fill(value);
  }
}
