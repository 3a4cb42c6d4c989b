import type { Locator, Page } from "@playwright/test";
import { EditorPage } from "./editor-page.ts";

/** The generated arguments form of the MCP tool call, and the editor it shares its text with. */
export class McpFormPage {
  readonly page: Page;
  readonly form: Locator;
  /** Why the form is read-only (the editor text does not parse as an object). */
  readonly error: Locator;
  readonly fillDefaults: Locator;
  /** Form and JSON / Form / JSON. */
  readonly views: Locator;
  /** Explanations of the parts only the editor can edit. */
  readonly editorOnly: Locator;
  readonly editor: EditorPage;

  constructor(page: Page) {
    this.page = page;
    this.form = page.getByRole("group", { name: "Arguments form", exact: true });
    this.error = this.form.getByTestId("schema-form-error");
    this.fillDefaults = this.form.getByRole("button", { name: "Fill defaults" });
    this.views = page.getByRole("tablist", { name: "Arguments view" });
    this.editorOnly = this.form.getByTestId("editor-only");
    this.editor = new EditorPage(page, "Arguments");
  }

  /** A field set of the form (an object, array item or union) by its exact label. */
  group(name: string, within: Locator = this.form): Locator {
    return within.getByRole("group", { name, exact: true });
  }

  /** An input, select or checkbox by its exact label. */
  field(name: string, within: Locator = this.form): Locator {
    return within.getByLabel(name, { exact: true });
  }

  view(name: "Form and JSON" | "Form" | "JSON"): Locator {
    return this.views.getByRole("tab", { name, exact: true });
  }

  /** The editor's whole text, copied as a user would (Monaco renders only the visible lines). */
  async editorText(): Promise<string> {
    const origin = new URL(this.page.url()).origin;
    await this.page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin });
    await this.page.evaluate(() => navigator.clipboard.writeText(""));
    await this.editor.textbox.focus();
    await this.page.keyboard.press("ControlOrMeta+A");
    await this.page.keyboard.press("ControlOrMeta+C");
    return this.page.evaluate(() => navigator.clipboard.readText());
  }

  /** The editor's text parsed, or the text itself when it is not JSON (so a poll can show it). */
  async editorJson(): Promise<unknown> {
    const text = await this.editorText();
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
}
