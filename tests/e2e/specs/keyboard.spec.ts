import type { Page } from "@playwright/test";
import { expect, test } from "../fixtures.ts";
import { EditorPage } from "../pages/editor-page.ts";

const WORKBENCHES = ["MCP", "A2A (HTTP)", "NATS", "Validate", "Serve", "Collections", "Conformance", "Traffic"] as const;

/** Marks the last control Tab can reach on the page and the last one in the workbench panel. */
function markEnds(page: Page): Promise<{ page: string; panel: string }> {
  return page.evaluate(() => {
    const selector = 'a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"]), [contenteditable="true"]';
    const tabbable = (el: Element) =>
      el instanceof HTMLElement && !(el as HTMLInputElement).disabled && el.tabIndex >= 0 && el.checkVisibility({ visibilityProperty: true }) && el.closest("[inert]") === null;
    const all = [...document.querySelectorAll(selector)].filter(tabbable);
    const panel = all.filter((el) => el.closest("#workbench-panel") !== null);
    for (const el of document.querySelectorAll("[data-e2e-end]")) el.removeAttribute("data-e2e-end");
    const describe = (el: Element | undefined) => (el ? `${el.tagName.toLowerCase()} ${el.getAttribute("aria-label") ?? el.textContent?.trim().slice(0, 40) ?? ""}` : "none");
    all.at(-1)?.setAttribute("data-e2e-end", "page");
    if (panel.at(-1) && panel.at(-1) !== all.at(-1)) panel.at(-1)?.setAttribute("data-e2e-end", "panel");
    return { page: describe(all.at(-1)), panel: describe(panel.at(-1)) };
  });
}

interface Focus {
  readonly end: string | null;
  /** The editor focus is in, by its label, or null. */
  readonly editor: string | null;
  readonly what: string;
}

function focus(page: Page): Promise<Focus> {
  return page.evaluate(() => {
    const el = document.activeElement;
    const group = el?.closest("[data-editor-status]");
    return {
      end: el?.getAttribute("data-e2e-end") ?? null,
      editor: group ? (group.getAttribute("aria-label") ?? "").replace(/ editor$/, "") : null,
      what: el ? `${el.tagName.toLowerCase()} ${el.getAttribute("aria-label") ?? ""}`.trim() : "nothing",
    };
  });
}

test.describe("every workbench can be crossed with the keyboard", () => {
  test("Tab goes from the workbench tab to the last control of each workbench, leaving every editor", async ({ page, app }) => {
    test.setTimeout(120_000);
    await page.goto(app.url);
    for (const name of WORKBENCHES) {
      const tab = page.getByRole("tab", { name, exact: true });
      await tab.click();
      await expect(page.getByRole("tabpanel").getByText(/^Loading /)).toHaveCount(0);
      await expect(page.locator('[data-editor-status="loading"]')).toHaveCount(0, { timeout: 20_000 });
      const ends = await markEnds(page);
      await tab.focus();
      const left = new Set<string>();
      const seen: string[] = [];
      // A workbench with no controls of its own (one not built yet) has no end of its own to reach.
      let reachedPanelEnd = ends.panel === "none" || ends.panel === ends.page;
      let reachedEnd = false;
      for (let i = 0; i < 400 && !reachedEnd; i++) {
        await page.keyboard.press("Tab");
        let at = await focus(page);
        seen.push(at.what);
        if (at.editor !== null) {
          const editor = at.editor;
          // The way out is on show while the editor has focus.
          await expect(new EditorPage(page, editor).group.getByTestId("editor-keys")).toContainText("Esc then Tab");
          await page.keyboard.press("Escape");
          await page.keyboard.press("Tab");
          at = await focus(page);
          seen.push(at.what);
          expect(at.editor, `${name}: Escape then Tab should leave the ${editor} editor`).not.toBe(editor);
          left.add(editor);
        }
        if (at.end === "panel") reachedPanelEnd = true;
        if (at.end === "page") reachedEnd = true;
      }
      expect(reachedPanelEnd, `${name}: focus should reach the workbench's last control (${ends.panel}); went through ${seen.join(" → ")}`).toBe(true);
      expect(reachedEnd, `${name}: focus should reach the page's last control (${ends.page})`).toBe(true);
      const editors = await page.locator("#workbench-panel [data-editor-status]").evaluateAll((els) =>
        els.filter((e) => (e as HTMLElement).checkVisibility()).map((e) => (e.getAttribute("aria-label") ?? "").replace(/ editor$/, "")),
      );
      expect([...left].sort(), `${name}: every editor on show was entered and left`).toEqual(editors.sort());
    }
  });

  test("Ctrl+M switches Tab between indenting and moving focus, and the hint says which", async ({ page, app }) => {
    await page.goto(`${app.url}#/nats`);
    const payload = new EditorPage(page, "Payload");
    await payload.waitReady();
    await payload.textbox.focus();
    const keys = payload.group.getByTestId("editor-keys");
    await expect(keys).toContainText("Tab indents");
    await page.keyboard.press("Control+m");
    await expect(keys).toContainText("Tab moves focus");
    await page.keyboard.press("Tab");
    await expect(payload.textbox).not.toBeFocused();
    await expect(keys).toHaveCount(0);
    await payload.textbox.focus();
    await page.keyboard.press("Control+m");
    await expect(keys).toContainText("Tab indents");
    await page.keyboard.press("Tab");
    await expect(payload.textbox).toBeFocused();
  });
});
