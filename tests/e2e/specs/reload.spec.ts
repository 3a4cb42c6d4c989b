import { connect } from "@nats-io/transport-node";
import { BackendClient } from "../../../src/core/backend/backend-client.ts";
import { discoveryRequest, discoverySubject, encodeFiskBytes } from "../../../src/core/fisk/codec/index.ts";
import { expect, test } from "../fixtures.ts";
import { A2aPage } from "../pages/a2a-page.ts";
import { EditorPage } from "../pages/editor-page.ts";
import { McpPage } from "../pages/mcp-page.ts";
import { NatsPage } from "../pages/nats-page.ts";
import { ServeA2aPage } from "../pages/serve-a2a-page.ts";
import { ServePage } from "../pages/serve-page.ts";
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

    // The launch address again, without a workbench in it: the tab open last comes back from the draft.
    await page.getByRole("tab", { name: "NATS" }).click();
    await page.goto(app.url);
    await expect(page.getByRole("tab", { name: "NATS" })).toHaveAttribute("aria-selected", "true");

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
    // An environment variable's value may be a secret: its name is kept, its value asked again.
    await mcp.connection.getByLabel("Environment variable 1 name").fill("API_KEY");
    await mcp.connection.getByLabel("Environment variable 1 value").fill("s3cret-env-value");
    await expect.poll(() => page.evaluate(() => JSON.stringify(sessionStorage))).toContain("API_KEY");
    expect(await page.evaluate(() => JSON.stringify(sessionStorage))).not.toContain("s3cret-env-value");

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
    await expect(mcp.connection.getByLabel("Environment variable 1 name")).toHaveValue("API_KEY");
    await expect(mcp.connection.getByLabel("Environment variable 1 value")).toHaveValue("");
  });

  test("the A2A compose form and the Conformance URL come back; the agent is one Fetch away", async ({ page, app }) => {
    test.setTimeout(90_000);
    const backend = new BackendClient({ fetch, token: app.token, baseUrl: app.origin });
    try {
      await page.goto(`${app.url}#/serve`);
      const cardUrl = await new ServeA2aPage(page).startAgent("0");
      await page.getByRole("tab", { name: "A2A (HTTP)" }).click();
      const a2a = new A2aPage(page);
      await a2a.fetchCard(cardUrl, { exact: true });
      await a2a.compose("Send a message", "kept through a reload");
      await page.getByRole("tab", { name: "Conformance" }).click();
      await page.getByTestId("conformance-url").fill("http://127.0.0.1:7421/mcp-kept");
      await expect.poll(() => page.evaluate(() => JSON.stringify(sessionStorage))).toContain("kept through a reload");
      await expect.poll(() => page.evaluate(() => JSON.stringify(sessionStorage))).toContain("mcp-kept");

      await page.reload();
      await expect(page.getByTestId("conformance-url")).toHaveValue("http://127.0.0.1:7421/mcp-kept");
      await page.getByRole("tab", { name: "A2A (HTTP)" }).click();
      await expect(a2a.url).toHaveValue(cardUrl);
      await a2a.fetchButton.click();
      await expect(a2a.fetchButton).toHaveText("Fetch card");
      await a2a.view("Compose");
      await expect(page.getByLabel("Part 1 text")).toHaveValue("kept through a reload");
      await expect(new EditorPage(page, "Request body").monaco.locator(".view-lines")).toContainText("kept through a reload");
    } finally {
      await backend.call("POST", "/serve/a2a/stop", {}).catch(() => undefined);
    }
  });

  test("Serve's traffic is still in the Traffic log after a reload, once: Serve goes on from where it read", async ({ page, app, status }) => {
    test.setTimeout(90_000);
    const backend = new BackendClient({ fetch, token: app.token, baseUrl: app.origin });
    const nc = await connect({ servers: status.nats.url ?? "" });
    // A name of this run's own: the backend may still hold served frames of earlier tests.
    const peer = `e2e-reload-peer-${Date.now().toString(36)}`;
    const ask = async () => {
      const ctx = { clock: { wallNow: () => Date.now() }, random: (b: Uint8Array) => crypto.getRandomValues(b), sender: { name: peer }, recipient: { name: "patchbay-demo" } };
      await nc.request(discoverySubject("patchbay-demo"), encodeFiskBytes(discoveryRequest(ctx)), { timeout: 5000 });
    };
    try {
      const serve = new ServePage(page);
      const traffic = new TrafficPage(page);
      await serve.open(app.url);
      await serve.natsStart.click();
      await expect(serve.natsState).toHaveText("running");
      await ask();
      await ask();
      const mine = async (n: number) => {
        await traffic.search.fill(peer);
        await expect(traffic.rows).toHaveCount(n);
      };
      await page.getByRole("tab", { name: "Traffic" }).click();
      await mine(4);

      await page.reload();
      // The log is back before Serve reads again; once it does, it goes on from where it was, adding nothing twice.
      await mine(4);
      await serve.reopen();
      await expect(serve.natsState).toHaveText("running");
      await ask();
      await expect(page.getByTestId("nats-traffic")).toContainText("Served traffic in the Traffic log: 2 frames");
      await page.getByRole("tab", { name: "Traffic" }).click();
      await mine(6);
    } finally {
      await nc.close();
      await backend.call("POST", "/serve/nats/stop", {}).catch(() => undefined);
    }
  });

  test("a fresh page opens on the MCP workbench", async ({ page, app }) => {
    await page.goto(app.url);
    await expect(page.getByRole("tab", { name: "MCP" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("form", { name: "MCP connection" })).toBeVisible();
  });
});
