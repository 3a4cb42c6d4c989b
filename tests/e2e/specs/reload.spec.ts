import { expect, test } from "../fixtures.ts";
import { EditorPage } from "../pages/editor-page.ts";
import { McpPage } from "../pages/mcp-page.ts";
import { NatsPage } from "../pages/nats-page.ts";
import { TrafficPage } from "../pages/traffic-page.ts";

/** A reload in the middle of work: what was typed, the open tab, the log and the connection come back. */
test.describe("nothing is lost on reload", () => {
  test("NATS form, payload, tab and Traffic log survive; the connection comes back with one click; clearing forgets them", async ({ page, app }) => {
    const nats = new NatsPage(page);
    const traffic = new TrafficPage(page);
    const subject = `reload.nobody.${Date.now().toString(36)}`;
    await nats.open(app.url);
    // A password typed (then not used) must never reach the storage.
    await nats.connection.getByLabel("Authentication").selectOption("userpass");
    await nats.connection.getByLabel("Password", { exact: true }).fill("hunter2-secret");
    await nats.connection.getByLabel("Authentication").selectOption("none");
    await nats.connect();
    await expect(nats.state).toHaveText("connected");
    await nats.subject.fill(subject);
    await nats.payload.waitReady();
    await nats.payload.replaceText('{"kept": true}');
    await nats.send.click();
    await expect(nats.replyTitle).toContainText(/no responders/i);
    await expect(page.getByTestId("status-frames")).toHaveText(/^2 frames/);

    await page.reload();
    // The open workbench, the form and the editor's text are back; nothing was stored of the password.
    await expect(page.getByRole("tab", { name: "NATS" })).toHaveAttribute("aria-selected", "true");
    await expect(nats.subject).toHaveValue(subject);
    await nats.payload.waitReady();
    await expect(nats.payload.monaco.locator(".view-lines")).toContainText('"kept": true');
    const stored = await page.evaluate(() => Object.keys(sessionStorage).map((k) => sessionStorage.getItem(k)).join("\n"));
    expect(stored).not.toContain("hunter2-secret");
    expect(stored).toContain('"format":"patchbay.draft"');
    // The log is back, both frames, the same count the status bar had.
    await expect(page.getByTestId("status-frames")).toHaveText(/^2 frames/);

    // The connection the reload cut is offered again; one click and it is back.
    await expect(page.getByTestId("status-nats")).not.toContainText("connected");
    await page.getByTestId("status-reconnect").click();
    await expect(page.getByTestId("status-nats")).toContainText("NATS: connected");
    await expect(nats.state).toHaveText("connected");

    await page.getByRole("tab", { name: "Traffic" }).click();
    await traffic.expectShowing("2", "2");
    await expect(traffic.rows.first()).toContainText(subject);

    await page.getByTestId("clear-drafts").click();
    await expect(page.getByTestId("clear-drafts")).toBeDisabled();
    await page.reload();
    await expect(page.getByTestId("status-frames")).toHaveText(/^0 frames/);
    // The address still names the tab; the form is back to its defaults.
    await page.getByRole("tab", { name: "NATS" }).click();
    await expect(nats.subject).toHaveValue("");
  });

  test("the MCP connection form and a toolkit edit come back; leaving with an unsaved toolkit asks first", async ({ page, app }) => {
    const mcp = new McpPage(page);
    await mcp.open(app.url);
    await mcp.transport.selectOption("stdio");
    await mcp.command.fill("node");
    await mcp.args.fill("server.js\n--flag");

    await page.getByRole("tab", { name: "Serve" }).click();
    const kit = new EditorPage(page, "Toolkit JSON");
    await kit.waitReady();
    await kit.replaceText('{"format": "patchbay.toolkit", "version": 1, "name": "edited-before-reload", "tools": []}');
    await expect.poll(() => page.evaluate(() => JSON.stringify(sessionStorage))).toContain("edited-before-reload");

    let asked = "";
    page.once("dialog", (dialog) => {
      asked = dialog.type();
      void dialog.accept();
    });
    await page.reload();
    expect(asked).toBe("beforeunload");

    await expect(page.getByRole("tab", { name: "Serve" })).toHaveAttribute("aria-selected", "true");
    await kit.waitReady();
    await expect(kit.monaco.locator(".view-lines")).toContainText("edited-before-reload");
    await page.getByRole("tab", { name: "MCP" }).click();
    await expect(mcp.command).toHaveValue("node");
    await expect(mcp.args).toHaveValue("server.js\n--flag");
  });

  test("a fresh page opens on the MCP workbench", async ({ page, app }) => {
    await page.goto(app.url);
    await expect(page.getByRole("tab", { name: "MCP" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("form", { name: "MCP connection" })).toBeVisible();
  });
});
