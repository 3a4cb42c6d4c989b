import { expect, type Locator, type Page } from "@playwright/test";
import { EditorPage } from "./editor-page.ts";
import { onTab } from "./tab-url.ts";

/** The Validate workbench; selectors by role, label and test id only. */
export class ValidatePage {
  readonly page: Page;
  readonly tab: Locator;
  readonly paste: Locator;
  readonly validateButton: Locator;
  readonly fileInput: Locator;
  readonly dropZone: Locator;
  readonly progress: Locator;
  readonly status: Locator;
  readonly cancelButton: Locator;
  readonly failure: Locator;
  readonly statusCounts: Locator;
  readonly familyCounts: Locator;
  readonly filter: Locator;
  readonly exportButton: Locator;
  readonly list: Locator;
  readonly rows: Locator;
  readonly detail: Locator;
  /** Where the open message came from, as its row says. */
  readonly detailPlace: Locator;
  readonly verdict: Locator;
  readonly issues: Locator;
  readonly packSelect: Locator;
  readonly kindSelect: Locator;
  /** The verdict's "About this pack" disclosure, its source links and its differences from upstream. */
  readonly aboutPack: Locator;
  readonly packSources: Locator;
  readonly packNotes: Locator;
  /** Between the verdict list and the open message. */
  readonly splitter: Locator;
  readonly editor: EditorPage;
  /** Monaco's squiggles under error markers. */
  readonly errorMarks: Locator;

  constructor(page: Page) {
    this.page = page;
    this.tab = page.getByRole("tab", { name: "Validate" });
    this.paste = page.getByRole("textbox", { name: "Paste messages" });
    this.validateButton = page.getByRole("button", { name: "Validate", exact: true });
    this.fileInput = page.getByLabel("Open files");
    this.dropZone = page.getByRole("region", { name: "Messages to validate" });
    this.progress = page.getByRole("progressbar", { name: "Validation progress" });
    this.status = page.getByTestId("validate-status");
    this.cancelButton = page.getByRole("button", { name: "Cancel" });
    this.failure = page.getByRole("region", { name: "Validate" }).getByRole("alert");
    this.statusCounts = page.getByRole("list", { name: "Counts by status" });
    this.familyCounts = page.getByRole("list", { name: "Counts by family" });
    this.filter = page.getByLabel("Show");
    this.exportButton = page.getByRole("button", { name: "Export report" });
    this.list = page.getByRole("listbox", { name: "Verdicts" });
    this.rows = this.list.getByRole("option");
    this.detail = page.getByRole("region", { name: "Message detail" });
    this.detailPlace = page.getByTestId("validate-detail-place");
    this.verdict = page.getByRole("region", { name: "Verdict" });
    this.issues = this.verdict.getByRole("list", { name: "Issues" }).getByRole("listitem");
    this.packSelect = page.getByRole("combobox", { name: "Pack" });
    this.kindSelect = page.getByRole("combobox", { name: "Kind" });
    this.aboutPack = this.verdict.getByRole("group", { name: "About this pack" });
    this.packSources = this.aboutPack.getByRole("list", { name: "Pack sources" }).getByRole("link");
    this.packNotes = this.aboutPack.getByRole("list", { name: "Differences from upstream" }).getByRole("listitem");
    this.splitter = page.getByRole("separator", { name: "Message detail height" });
    this.editor = new EditorPage(page, "Message");
    this.errorMarks = this.editor.group.locator(".squiggly-error");
  }

  async open(url: string): Promise<void> {
    await this.page.goto(onTab(url, "validate"));
    await this.tab.click();
    await expect(this.dropZone).toBeVisible();
  }

  /** Drops one file on the drop zone, as a user dragging it from the desktop would. */
  async dropFile(name: string, text: string): Promise<void> {
    const dataTransfer = await this.page.evaluateHandle(
      ({ name, text }) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([text], name, { type: "application/x-ndjson" }));
        return transfer;
      },
      { name, text },
    );
    await this.dropZone.dispatchEvent("dragover", { dataTransfer });
    await this.dropZone.dispatchEvent("drop", { dataTransfer });
  }

  /** Opens the "About this pack" disclosure by its summary, as a user would. */
  async openAboutPack(): Promise<void> {
    await this.aboutPack.getByText("About this pack", { exact: true }).click();
    await expect(this.aboutPack).toHaveJSProperty("open", true);
  }

  /** The count shown for a status ("Invalid") or family ("MCP"). */
  count(list: Locator, label: string): Locator {
    return list.getByRole("listitem").filter({ hasText: new RegExp(`^${label} `) });
  }

  async expectCounts(list: Locator, counts: Readonly<Record<string, number>>): Promise<void> {
    for (const [label, n] of Object.entries(counts)) {
      await expect(this.count(list, label)).toHaveText(`${label} ${n.toLocaleString("en-US")}`);
    }
  }

  /**
   * Expects the list to show one row per place, in order, and each row, clicked, to open its own
   * message. Only for short lists: every row must be rendered.
   */
  async expectRowsOpenTheirMessages(places: readonly string[]): Promise<void> {
    await expect(this.rows).toHaveCount(places.length);
    for (const [i, place] of places.entries()) {
      const row = this.rows.nth(i);
      await expect(row, `row ${i}`).toContainText(place);
      await row.click();
      await expect(row, `row ${i} selected`).toHaveAttribute("aria-selected", "true");
      await expect(this.detailPlace, `message opened by row ${i}`).toContainText(place);
    }
  }

  /** Waits for the status line to say the run finished. */
  async expectValidated(n: number, timeout = 30_000): Promise<void> {
    const word = n === 1 ? "message" : "messages";
    await expect(this.status).toContainText(`Validated ${n.toLocaleString("en-US")} ${word}`, { timeout });
  }
}
