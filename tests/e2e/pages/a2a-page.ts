import { expect, type Locator, type Page } from "@playwright/test";
import { onTab } from "./tab-url.ts";

export type A2aView = "Agent Card" | "Compare cards" | "Compose" | "Conversations";

/** The A2A (HTTP) workbench, reached through its tab; selectors by role, label and test id only. */
export class A2aPage {
  readonly page: Page;
  readonly url: Locator;
  readonly fetchButton: Locator;
  readonly attempts: Locator;
  readonly dialect: Locator;
  readonly evidence: Locator;
  readonly verdict: Locator;
  readonly bearer: Locator;
  readonly directNote: Locator;
  readonly send: Locator;
  readonly operation: Locator;
  readonly exchange: Locator;

  constructor(page: Page) {
    this.page = page;
    this.url = page.getByRole("textbox", { name: /Agent URL/ });
    this.fetchButton = page.getByRole("button", { name: "Fetch card" });
    this.attempts = page.getByRole("list", { name: "Attempts" });
    this.dialect = page.getByTestId("a2a-dialect");
    this.evidence = page.getByRole("list", { name: "Dialect evidence" });
    this.verdict = page.getByTestId("a2a-card-verdict");
    this.bearer = page.getByLabel("Bearer token");
    this.directNote = page.getByTestId("a2a-direct-note");
    this.send = page.getByRole("button", { name: "Send", exact: true });
    this.operation = page.getByLabel("Operation");
    this.exchange = page.getByTestId("a2a-exchange");
  }

  async open(appUrl: string): Promise<void> {
    await this.page.goto(onTab(appUrl, "a2a"));
    await this.page.getByRole("tab", { name: "A2A (HTTP)" }).click();
    await expect(this.fetchButton).toBeVisible();
  }

  async view(name: A2aView): Promise<void> {
    await this.page.getByRole("tablist", { name: "A2A views" }).getByRole("tab", { name }).click();
  }

  /** Sets the custom header rows to exactly these (blank rows clear). */
  async headers(rows: readonly (readonly [string, string])[]): Promise<void> {
    for (const [i, [name, value]] of rows.entries()) {
      if ((await this.page.getByLabel(`Header ${i + 1} name`).count()) === 0) await this.page.getByRole("button", { name: "Add header" }).click();
      await this.page.getByLabel(`Header ${i + 1} name`).fill(name);
      await this.page.getByLabel(`Header ${i + 1} value`).fill(value);
    }
  }

  /** Fetches the card at `url` and waits for the attempts to show. */
  async fetchCard(url: string, options: { exact?: boolean; via?: "backend" | "direct" } = {}): Promise<void> {
    await this.url.fill(url);
    await this.page.getByRole("radio", { name: options.exact ? "Exactly this URL" : /Auto: / }).check();
    await this.page.getByRole("radio", { name: options.via === "direct" ? /Directly from the browser/ : /Through the backend/ }).check();
    await this.fetchButton.click();
    await expect(this.fetchButton).toHaveText("Fetch card");
    await expect(this.attempts).toBeVisible();
  }

  /** The interface radio whose label matches, in the chooser on show. */
  interfaceRadio(label: RegExp): Locator {
    return this.page.getByRole("radio", { name: label });
  }

  async compose(operation: string, text: string): Promise<void> {
    await this.view("Compose");
    await this.operation.selectOption({ label: operation });
    await this.page.getByLabel("Part 1 text").fill(text);
  }

  /** The card of the task, in the Conversations view. */
  task(): Locator {
    return this.page.getByRole("article", { name: /^Task / }).first();
  }

  taskState(): Locator {
    return this.task().getByTestId("a2a-task-state");
  }

  timeline(): Locator {
    return this.page.getByRole("list", { name: "Timeline events" });
  }

  /** How the stream in Compose ended, in the dialect's words. */
  get streamEnd(): Locator {
    return this.page.getByTestId("a2a-stream-end");
  }

  /** The HTTP status of the exchange in Compose. */
  get status(): Locator {
    return this.page.getByTestId("a2a-status");
  }

  /** Why the exchange in Compose failed, when it did. */
  get failure(): Locator {
    return this.page.getByTestId("a2a-failure");
  }

  /** Picks "Another interface, typed by hand" and fills it in. */
  async typedInterface(url: string, version: string, binding: "JSON-RPC" | "HTTP+JSON"): Promise<void> {
    await this.page.getByRole("radio", { name: "Another interface, typed by hand" }).check();
    await this.page.getByLabel("Interface URL").fill(url);
    // The labels wrap their selects, so the option texts are part of the names.
    await this.page.getByRole("combobox", { name: /^Version/ }).selectOption({ label: version });
    await this.page.getByRole("combobox", { name: /^Binding/ }).selectOption({ label: binding });
  }

  /** The verdict shown next to each answer frame, in order. */
  frameVerdicts(): Locator {
    return this.exchange.getByTestId("a2a-frame-verdict");
  }

  /** The verdict of the request body sent. */
  requestVerdict(): Locator {
    return this.exchange.getByTestId("a2a-request-verdict");
  }

  /** "N frames checked against A2A …". */
  frameSummary(): Locator {
    return this.exchange.getByTestId("a2a-frame-summary");
  }

  /** Turns the template into a raw request and replaces its body. */
  async rawBody(body: string): Promise<void> {
    await this.page.getByRole("button", { name: "Edit as a raw request" }).click();
    await this.page.getByLabel("Raw body").fill(body);
  }

  /** The push notifications on the timeline, in order. */
  pushLines(): Locator {
    return this.timeline().getByTestId("a2a-timeline-push");
  }

  /** The receiver shown in `within` (a task card, or Compose). */
  pushReceiver(within: Locator = this.task()): Locator {
    return within.getByTestId("a2a-push-receiver");
  }

  /** The task's id, from its card's name ("Task <id>"). */
  async taskId(): Promise<string> {
    const name = (await this.task().getAttribute("aria-label")) ?? "";
    return name.replace(/^Task /, "");
  }
}
