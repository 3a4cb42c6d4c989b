import { expect, test } from "../fixtures.ts";

test.describe("application shell", () => {
  test("the printed URL hands over the token and leaves the address bar clean", async ({ page, app }) => {
    await page.goto(app.url);
    expect(new URL(page.url()).search).toBe("");
    await expect(page.getByTestId("status-backend")).toContainText("Backend: connected");
  });

  test("without the token the page explains how to get in", async ({ page, app }) => {
    const res = await page.goto(`${app.origin}/`);
    expect(res?.status()).toBe(401);
    await expect(page.locator("body")).toContainText("printed in the terminal");
  });

  test("workbench tabs are reachable and switchable from the keyboard", async ({ page, app }) => {
    await page.goto(`${app.url}`);
    const nats = page.getByRole("tab", { name: "NATS" });
    await nats.focus();
    await page.keyboard.press("ArrowRight");
    const validate = page.getByRole("tab", { name: "Validate" });
    await expect(validate).toBeFocused();
    await expect(validate).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("tabpanel")).toContainText("Nothing validated yet");
    expect(new URL(page.url()).hash).toBe("#/validate");
    await page.keyboard.press("ArrowRight");
    await expect(page.getByRole("tabpanel")).toContainText("Served over MCP");
    await page.keyboard.press("End");
    await expect(page.getByRole("tab", { name: "Traffic" })).toBeFocused();
    await page.keyboard.press("Home");
    await expect(page.getByRole("tab", { name: "MCP" })).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("ArrowRight");
    await expect(page.getByRole("tabpanel").first()).toContainText("Fetch an Agent Card");
  });

  test("the theme switches between light and dark and is remembered", async ({ page, app }) => {
    await page.goto(app.url);
    const html = page.locator("html");
    const before = await html.getAttribute("data-theme");
    await page.getByRole("button", { name: /Switch to (dark|light) theme/ }).click();
    const after = await html.getAttribute("data-theme");
    expect(after).not.toBe(before);
    expect(["light", "dark"]).toContain(after);
    await page.reload();
    await expect(html).toHaveAttribute("data-theme", after ?? "");
  });

  test("fits 1280×800 without horizontal scrolling", async ({ page, app }) => {
    await page.goto(app.url);
    for (const name of ["MCP", "NATS", "Traffic"]) {
      await page.getByRole("tab", { name }).click();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, name).toBeLessThanOrEqual(0);
    }
  });
});
