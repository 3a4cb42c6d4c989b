import { expect, type Locator, type Page } from "@playwright/test";
import { EditorPage } from "./editor-page.ts";

/** "Save to collection" beside a workbench's Send button. */
export class SaveToCollectionPage {
  readonly toggle: Locator;
  readonly panel: Locator;
  readonly collection: Locator;
  readonly newName: Locator;
  readonly stepName: Locator;
  readonly save: Locator;
  readonly notice: Locator;
  readonly error: Locator;

  constructor(scope: Page | Locator) {
    this.toggle = scope.getByRole("button", { name: "Save to collection…" });
    this.panel = scope.getByRole("group", { name: "Save to collection" });
    this.collection = this.panel.getByRole("combobox", { name: "Collection", exact: true });
    this.newName = this.panel.getByLabel("New collection name");
    this.stepName = this.panel.getByLabel("Step name");
    this.save = this.panel.getByRole("button", { name: "Save step" });
    this.notice = this.panel.getByTestId("save-to-collection-notice");
    this.error = this.panel.getByTestId("save-to-collection-error");
  }

  /** Saves the workbench's request as a step of a new collection. */
  async toNewCollection(name: string, step?: string): Promise<void> {
    await this.toggle.click();
    await this.collection.selectOption({ label: "New collection…" });
    await this.newName.fill(name);
    if (step !== undefined) await this.stepName.fill(step);
    await this.save.click();
  }
}

/** The Collections workbench: list, JSON editor, runner and exports. */
export class CollectionsPage {
  readonly page: Page;
  readonly list: Locator;
  readonly editor: EditorPage;
  readonly unsaved: Locator;
  readonly valid: Locator;
  readonly problems: Locator;
  readonly save: Locator;
  readonly notice: Locator;
  readonly error: Locator;
  readonly run: Locator;
  readonly stop: Locator;
  readonly runError: Locator;
  readonly progress: Locator;
  readonly progressText: Locator;
  readonly totals: Locator;
  readonly steps: Locator;
  readonly rows: Locator;
  readonly detail: Locator;
  readonly assertionResults: Locator;
  readonly frames: Locator;
  readonly exportReport: Locator;
  readonly exportJunit: Locator;
  readonly exportCollection: Locator;
  readonly compare: Locator;
  readonly compareHeadline: Locator;
  readonly stepChanges: Locator;

  constructor(page: Page) {
    this.page = page;
    this.list = page.getByRole("list", { name: "Collections" });
    this.editor = new EditorPage(page, "Collection JSON");
    this.unsaved = page.getByTestId("editor-unsaved");
    this.valid = page.getByTestId("collection-valid");
    this.problems = page.getByRole("list", { name: "Collection check problems" });
    this.save = page.getByRole("region", { name: "Collection editor" }).getByRole("button", { name: "Save", exact: true });
    this.notice = page.getByRole("region", { name: "Collection editor" }).getByRole("status");
    this.error = page.getByTestId("collections-error");
    this.run = page.getByRole("button", { name: "Run", exact: true });
    this.stop = page.getByRole("button", { name: "Stop", exact: true });
    this.runError = page.getByTestId("run-error");
    this.progress = page.getByRole("progressbar", { name: "Run progress" });
    this.progressText = page.getByTestId("run-progress-text");
    this.totals = page.getByTestId("run-totals");
    this.steps = page.getByRole("listbox", { name: "Steps" });
    this.rows = this.steps.getByRole("option");
    this.detail = page.getByRole("region", { name: "Step detail" });
    this.assertionResults = this.detail.getByRole("list", { name: "Assertion results" });
    this.frames = this.detail.getByRole("list", { name: "Step frames" });
    const exports = page.getByRole("region", { name: "Export" });
    this.exportReport = exports.getByRole("button", { name: "Run report (JSON)" });
    this.exportJunit = exports.getByRole("button", { name: "JUnit XML" });
    this.exportCollection = exports.getByRole("button", { name: "Collection file" });
    this.compare = page.getByRole("button", { name: "Compare with previous run" });
    this.compareHeadline = page.getByTestId("compare-headline");
    this.stepChanges = page.getByRole("list", { name: "Step changes" });
  }

  async openTab(): Promise<void> {
    await this.page.getByRole("tab", { name: "Collections" }).click();
    await expect(this.page.getByRole("heading", { name: "Collections" })).toBeVisible();
  }

  async choose(name: string): Promise<void> {
    await this.list.getByRole("button", { name: new RegExp(`^${name}\\b`) }).click();
    await this.editor.waitReady();
  }
}
