import { expect, type Locator, type Page } from "@playwright/test";
import { onTab } from "./tab-url.ts";

/** The Traffic workbench, reached through its tab; selectors by role, label and test id only. */
export class TrafficPage {
  readonly page: Page;
  readonly counts: Locator;
  readonly list: Locator;
  readonly rows: Locator;
  readonly search: Locator;
  readonly method: Locator;
  readonly importInput: Locator;
  readonly exportButton: Locator;
  readonly clearButton: Locator;
  readonly importReport: Locator;
  readonly importProblems: Locator;
  readonly detail: Locator;
  readonly rawBytes: Locator;
  readonly decoded: Locator;
  readonly empty: Locator;

  constructor(page: Page) {
    this.page = page;
    this.counts = page.getByTestId("traffic-counts");
    this.list = page.getByRole("listbox", { name: "Frames" });
    this.rows = this.list.getByRole("option");
    this.search = page.getByRole("searchbox", { name: "Search" });
    this.method = page.getByLabel("Method or protocol");
    this.importInput = page.getByLabel("Import JSONL");
    this.exportButton = page.getByRole("button", { name: "Export JSONL" });
    this.clearButton = page.getByRole("button", { name: "Clear" });
    this.importReport = page.getByRole("region", { name: "Import report" });
    this.importProblems = page.getByRole("list", { name: "Import problems" });
    this.detail = page.getByRole("region", { name: "Frame detail" });
    this.rawBytes = page.getByTestId("raw-bytes");
    this.decoded = page.getByTestId("decoded-json");
    this.empty = page.getByTestId("traffic-empty");
  }

  async open(url: string): Promise<void> {
    await this.page.goto(onTab(url, "traffic"));
    await this.page.getByRole("tab", { name: "Traffic" }).click();
    await expect(this.counts).toBeVisible();
  }

  /** Import a JSONL file through the file input and wait for the import report. */
  async importFile(path: string): Promise<void> {
    await this.importInput.setInputFiles(path);
    await expect(this.importReport).toBeVisible({ timeout: 60_000 });
  }

  row(name: string | RegExp): Locator {
    return this.list.getByRole("option", { name });
  }

  /** Wait for the counter to read "showing N of M" (numbers as displayed, e.g. "100,000"). */
  async expectShowing(shown: string, total: string): Promise<void> {
    await expect(this.counts).toContainText(`showing ${shown} of ${total}`, { timeout: 30_000 });
  }
}
