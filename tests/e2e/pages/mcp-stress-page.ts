import { join } from "node:path";
import { expect, type Locator, type Page } from "@playwright/test";
import { ROOT } from "../app-info.ts";
import { McpPage } from "./mcp-page.ts";

/** The generated server with as many tools as asked, listed in pages. */
export const MANY_TOOLS_SERVER = join(ROOT, "tests/fixtures/mcp/many-tools-server.mjs");
/** What the tool list measures, from the tools being set in state to the list painted. */
export const RENDER_MEASURE = "patchbay:mcp-tools-render";

declare global {
  interface Window {
    /** [start, duration] of each long task, in ms since the page's time origin. */
    __patchbayLongTasks?: [number, number][];
  }
}

/** The MCP workbench driven for stress: a big generated server, the raw panel's verdicts, the page's long tasks. */
export class McpStressPage extends McpPage {
  readonly requestTimeout: Locator;
  readonly rawSummary: Locator;
  readonly rawAnswer: Locator;
  readonly rawError: Locator;
  readonly frameItems: Locator;

  constructor(page: Page) {
    super(page);
    this.requestTimeout = this.connection.getByLabel("Request timeout (s)");
    this.rawSummary = page.getByTestId("mcp-raw-summary");
    this.rawAnswer = page.getByTestId("mcp-raw-answer");
    this.rawError = page.getByRole("region", { name: "Raw JSON-RPC" }).getByRole("alert");
    this.frameItems = this.rawFrames.locator(":scope > li");
  }

  /** Records every long task (main thread busy over 50 ms) from the first script on. */
  async watchLongTasks(): Promise<void> {
    await this.page.addInitScript(() => {
      window.__patchbayLongTasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.__patchbayLongTasks!.push([entry.startTime, entry.duration]);
      }).observe({ type: "longtask", buffered: true });
    });
  }

  /** The page's clock, to tell the long tasks of one step from those of loading the page. */
  now(): Promise<number> {
    return this.page.evaluate(() => performance.now());
  }

  /** Durations of the long tasks that started at or after `since`. */
  longTasksSince(since: number): Promise<number[]> {
    return this.page.evaluate((t) => (window.__patchbayLongTasks ?? []).filter(([start]) => start >= t).map(([, duration]) => duration), since);
  }

  async connectMany(tools: number, pageSize: number): Promise<void> {
    await this.connectStdio(process.execPath, [MANY_TOOLS_SERVER, "--tools", String(tools), "--page-size", String(pageSize)], "2025-06-18");
    await expect(this.state).toHaveText("connected", { timeout: 30_000 });
  }

  /** Durations of the tool list's render measures so far, oldest first. */
  renderTimes(): Promise<number[]> {
    return this.page.evaluate((name) => performance.getEntriesByName(name, "measure").map((m) => m.duration), RENDER_MEASURE);
  }

  /** Types a raw message (filled, so a large one is not typed key by key) and sends it. */
  async sendRawText(text: string): Promise<void> {
    await this.rawMessage.fill(text);
    await this.sendRaw.click();
  }

  /** The listed frame whose preview contains `text`. */
  frame(text: string | RegExp): Locator {
    return this.frameItems.filter({ hasText: text });
  }
}
