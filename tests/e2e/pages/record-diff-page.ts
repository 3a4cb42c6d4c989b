import type { Locator, Page } from "@playwright/test";

/** Traffic's "Save as collection" panel: the recording's name, steps, what was left out, and saving. */
export class RecordPanelPage {
  readonly start: Locator;
  readonly importInput: Locator;
  readonly panel: Locator;
  readonly summary: Locator;
  readonly name: Locator;
  readonly save: Locator;
  readonly openInCollections: Locator;
  readonly notice: Locator;
  readonly error: Locator;
  readonly skipped: Locator;

  constructor(page: Page) {
    this.start = page.getByRole("button", { name: "Save as collection…" });
    this.importInput = page.getByLabel("Import capture as collection");
    this.panel = page.getByRole("group", { name: "Save as collection" });
    this.summary = this.panel.getByTestId("record-summary");
    this.name = this.panel.getByLabel("Collection name");
    this.save = this.panel.getByRole("button", { name: "Save collection" });
    this.openInCollections = this.panel.getByRole("button", { name: "Open in Collections" });
    this.notice = this.panel.getByTestId("record-notice");
    this.error = this.panel.getByTestId("record-error");
    this.skipped = this.panel.getByRole("list", { name: "Frames left out" });
  }
}

/** The Collections workbench's Diff view: two inputs, what each was detected as, and the differences. */
export class DiffPage {
  readonly page: Page;
  readonly tab: Locator;
  readonly before: Locator;
  readonly after: Locator;
  readonly beforeStatus: Locator;
  readonly afterStatus: Locator;
  readonly headline: Locator;
  readonly none: Locator;
  readonly error: Locator;

  constructor(page: Page) {
    this.page = page;
    this.tab = page.getByRole("tab", { name: "Diff", exact: true });
    this.before = page.getByLabel("Before: paste JSON or JSONL");
    this.after = page.getByLabel("After: paste JSON or JSONL");
    this.beforeStatus = page.getByTestId("diff-before-status");
    this.afterStatus = page.getByTestId("diff-after-status");
    this.headline = page.getByTestId("diff-headline");
    this.none = page.getByTestId("diff-none");
    this.error = page.getByTestId("diff-error");
  }

  /** A changed tool's schema changes, one list item per pointer. */
  inputSchemaChanges(tool: string): Locator {
    return this.page.getByRole("list", { name: `${tool} input schema changes` });
  }
}
