import { expect, type Locator, type Page } from "@playwright/test";
import { MONACO_NAME } from "../../../scripts/budget.mjs";

/** URLs of Monaco's lazily loaded chunks, workers and font: the pattern the bundle budget uses. */
export const MONACO_URL = MONACO_NAME;

/**
 * One JsonEditor, found by its accessible label: the editable surface is named `label`, the
 * wrapping group "`label` editor" and the Problems region "`label` problems".
 */
export class EditorPage {
  readonly page: Page;
  readonly group: Locator;
  /** Monaco's input surface once loaded, the read-only placeholder or the fallback textarea before. */
  readonly textbox: Locator;
  readonly monaco: Locator;
  readonly loading: Locator;
  readonly fallback: Locator;
  readonly notice: Locator;
  readonly problemsRegion: Locator;
  readonly problems: Locator;

  constructor(page: Page, label: string) {
    this.page = page;
    this.group = page.getByRole("group", { name: `${label} editor`, exact: true });
    this.textbox = this.group.getByRole("textbox", { name: label, exact: true });
    this.monaco = this.group.locator(".monaco-editor");
    this.loading = this.group.getByRole("status").filter({ hasText: "Loading editor…" });
    this.fallback = this.group.locator("textarea");
    this.notice = this.group.getByRole("alert");
    this.problemsRegion = this.group.getByRole("region", { name: `${label} problems` });
    this.problems = this.problemsRegion.getByRole("button");
  }

  async waitReady(): Promise<void> {
    await expect(this.group).toHaveAttribute("data-editor-status", "ready", { timeout: 20_000 });
    await expect(this.monaco).toBeVisible();
  }

  /** The Problems entry at "line:column" (its text is "line:column — message"). */
  problemAt(lineColumn: string): Locator {
    return this.problems.filter({ hasText: new RegExp(`^${lineColumn} — `) });
  }

  /**
   * Replaces the whole text by pasting it, as a user would: typing into Monaco would auto-close
   * brackets and auto-indent, so typed keys do not give a predictable text.
   */
  async replaceText(text: string): Promise<void> {
    const origin = new URL(this.page.url()).origin;
    await this.page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin });
    await this.page.evaluate((t) => navigator.clipboard.writeText(t), text);
    await this.textbox.focus();
    await this.page.keyboard.press("ControlOrMeta+A");
    await this.page.keyboard.press("ControlOrMeta+V");
  }

  /** Number of the line the caret is on, as Monaco's gutter highlights it. */
  activeLine(): Locator {
    return this.group.locator(".line-numbers.active-line-number");
  }
}
