import { join } from "node:path";
import type { Page } from "@playwright/test";
import { BackendClient } from "../../../src/core/backend/backend-client.ts";
import { ROOT } from "../app-info.ts";
import { expect, test } from "../fixtures.ts";
import { A2aPage } from "../pages/a2a-page.ts";
import { EditorPage } from "../pages/editor-page.ts";
import { McpPage } from "../pages/mcp-page.ts";
import { ServeA2aPage } from "../pages/serve-a2a-page.ts";
import { ValidatePage } from "../pages/validate-page.ts";

const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");

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
  /** The editor whose text has focus, by its label, or null. */
  readonly editor: string | null;
  readonly what: string;
}

function focus(page: Page): Promise<Focus> {
  return page.evaluate(() => {
    const el = document.activeElement;
    // In the editor's text (Monaco, or the plain textarea it falls back to); its Problems list is a control of its own.
    const inText = el !== null && (el.closest(".monaco-editor") !== null || el.tagName === "TEXTAREA" || el.getAttribute("role") === "textbox");
    const group = inText ? el.closest("[data-editor-status]") : null;
    return {
      end: el?.getAttribute("data-e2e-end") ?? null,
      editor: group ? (group.getAttribute("aria-label") ?? "").replace(/ editor$/, "") : null,
      what: el ? `${el.tagName.toLowerCase()} ${el.getAttribute("aria-label") ?? el.textContent?.trim().slice(0, 40) ?? ""} ${el.className}`.trim() : "nothing",
    };
  });
}

/**
 * From the workbench's tab, Tab to the page's last control: focus must reach the workbench's own
 * last control on the way, and every editor on show must be entered, show its way out, and be left
 * with Escape then Tab. Returns the editors left.
 */
async function crossWorkbench(page: Page, name: string): Promise<string[]> {
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
      expect(at.editor, `${name}: Escape then Tab should leave the ${editor} editor (focus is on ${at.what})`).not.toBe(editor);
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
  return [...left];
}

test.describe("every workbench can be crossed with the keyboard", () => {
  test("Tab goes from the workbench tab to the last control of each workbench, leaving every editor", async ({ page, app }) => {
    test.setTimeout(120_000);
    await page.goto(app.url);
    const tabs = await page.getByRole("navigation", { name: "Workbenches" }).getByRole("tab").allTextContents();
    // Every workbench the app has is crossed: a new one cannot be left out of this test.
    expect(tabs.map((t) => t.trim())).toEqual([...WORKBENCHES]);
    for (const name of WORKBENCHES) await crossWorkbench(page, name);
  });

  test("the editors that come with work in progress are left the same way: tool input, arguments, request body, message, collection", async ({ page, app }) => {
    test.setTimeout(180_000);
    const backend = new BackendClient({ fetch, token: app.token, baseUrl: app.origin });
    const left: string[] = [];
    try {
      await page.goto(app.url);
      // MCP: connected, a tool chosen: its Arguments editor.
      const mcp = new McpPage(page);
      await mcp.connectStdio(process.execPath, [EVERYTHING, "stdio"], "2025-06-18");
      await expect(mcp.state).toHaveText("connected", { timeout: 20_000 });
      await mcp.selectTool("echo");
      await mcp.argsEditor.waitReady();
      left.push(...(await crossWorkbench(page, "MCP")));

      // A2A: the served agent's card fetched, a message composed: its Request body editor.
      await page.getByRole("tab", { name: "Serve" }).click();
      const cardUrl = await new ServeA2aPage(page).startAgent("0");
      await page.getByRole("tab", { name: "A2A (HTTP)" }).click();
      const a2a = new A2aPage(page);
      await a2a.fetchCard(cardUrl, { exact: true });
      await a2a.compose("Send a message", "hello");
      await new EditorPage(page, "Request body").waitReady();
      left.push(...(await crossWorkbench(page, "A2A (HTTP)")));

      // NATS: the Tool call tab's Tool input editor.
      await page.getByRole("tab", { name: "NATS" }).click();
      await page.getByRole("tablist", { name: "NATS tools" }).getByRole("tab", { name: "Tool call", exact: true }).click();
      await new EditorPage(page, "Tool input").waitReady();
      left.push(...(await crossWorkbench(page, "NATS")));

      // Validate: a pasted message opened: its Message editor.
      const validate = new ValidatePage(page);
      await page.getByRole("tab", { name: "Validate" }).click();
      await validate.paste.fill('{"jsonrpc": "2.0", "id": 1, "method": "ping"}');
      await validate.validateButton.click();
      await validate.expectValidated(1);
      await validate.rows.first().click();
      await validate.editor.waitReady();
      left.push(...(await crossWorkbench(page, "Validate")));

      // Collections: a new collection open: its Collection JSON editor.
      await page.getByRole("tab", { name: "Collections" }).click();
      const create = page.getByRole("form", { name: "New collection" });
      await create.getByLabel("New collection").fill(`keys-${Date.now().toString(36)}`);
      await create.getByRole("button", { name: "New" }).click();
      await new EditorPage(page, "Collection JSON").waitReady();
      left.push(...(await crossWorkbench(page, "Collections")));

      expect(left.sort()).toEqual(["Arguments", "Collection JSON", "Message", "Request body", "Tool input"]);
    } finally {
      await backend.call("POST", "/serve/a2a/stop", {}).catch(() => undefined);
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
