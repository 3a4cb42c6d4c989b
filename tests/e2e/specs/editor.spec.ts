import type { Page } from "@playwright/test";
import { expect, test } from "../fixtures.ts";
import { EditorPage, MONACO_URL } from "../pages/editor-page.ts";

/** Every URL the page requests from now on, workers included. */
function recordRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on("request", (r) => urls.push(r.url()));
  return urls;
}

async function openNats(page: Page): Promise<EditorPage> {
  await page.getByRole("tab", { name: "NATS" }).click();
  const editor = new EditorPage(page, "Payload");
  await editor.waitReady();
  return editor;
}

test.describe("JSON editor (Monaco, lazy)", () => {
  test("Monaco stays out of first paint and loads when the NATS payload editor opens", async ({ page, app }) => {
    const urls = recordRequests(page);
    await page.goto(`${app.url}#/traffic`);
    await expect(page.getByRole("tab", { name: "Traffic" })).toHaveAttribute("aria-selected", "true");
    await page.waitForLoadState("networkidle");
    expect(urls.length, "the page itself was requested").toBeGreaterThan(1);
    expect(urls.filter((u) => MONACO_URL.test(u)), "no Monaco chunk or worker before an editor opens").toEqual([]);

    const editor = await openNats(page);
    await expect(editor.textbox).toBeAttached();
    expect(urls.some((u) => /monaco-loader[^/]*\.js/.test(u)), "the Monaco chunk was fetched").toBe(true);
    // The JSON worker starts once the model is validated.
    await expect.poll(() => urls.some((u) => /json\.worker[^/]*\.js/.test(u))).toBe(true);
  });

  test("invalid JSON shows a syntax error at its line and column; clicking it moves the caret there", async ({ page, app }) => {
    await page.goto(`${app.url}#/traffic`);
    const editor = await openNats(page);

    await editor.replaceText('{\n  "hello": "world",\n  "count" 2\n}');
    const problem = editor.problemAt("3:11");
    await expect(problem).toHaveCount(1);
    await expect(problem).toContainText("Colon expected");

    await problem.click();
    await expect(editor.activeLine()).toHaveText("3");
    await expect(editor.textbox).toBeFocused();

    await editor.replaceText('{\n  "hello": "world",\n  "count": 2\n}');
    await expect(editor.problemAt("3:11")).toHaveCount(0);
  });

  test("the editor follows the app's light and dark theme", async ({ page, app }) => {
    await page.goto(`${app.url}#/traffic`);
    const editor = await openNats(page);
    const html = page.locator("html");
    const toggle = page.getByRole("button", { name: /^Switch to (dark|light) theme$/ });

    // Monaco puts its theme name ("vs" or "vs-dark") among the editor element's classes.
    const themeClass = (theme: string | null) => (theme === "dark" ? /(^|\s)vs-dark(\s|$)/ : /(^|\s)vs(\s|$)/);
    for (let i = 0; i < 2; i++) {
      const theme = await html.getAttribute("data-theme");
      await expect(editor.monaco).toHaveClass(themeClass(theme));
      await toggle.click();
      const next = theme === "dark" ? "light" : "dark";
      await expect(html).toHaveAttribute("data-theme", next);
      await expect(editor.monaco).toHaveClass(themeClass(next));
    }
  });

  test("when Monaco cannot load, a plain textarea keeps the text editable and still reports syntax errors", async ({ page, app }) => {
    await page.route(/\/assets\/monaco-loader[^/]*\.js$/, (route) => route.abort());
    await page.goto(`${app.url}#/traffic`);
    await page.getByRole("tab", { name: "NATS" }).click();
    const editor = new EditorPage(page, "Payload");

    await expect(editor.group).toHaveAttribute("data-editor-status", "failed");
    await expect(editor.notice).toContainText("could not load");
    await expect(editor.fallback).toBeVisible();
    const before = await editor.fallback.inputValue();
    expect(before.length, "the text shown before the failure is kept").toBeGreaterThan(0);

    await editor.fallback.fill('{"hello" "world"}');
    await expect(editor.fallback).toHaveValue('{"hello" "world"}');
    await expect(editor.problemAt("1:10")).toContainText("expected ':'");
  });
});
