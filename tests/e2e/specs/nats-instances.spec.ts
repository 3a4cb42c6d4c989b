import { join } from "node:path";
import { startNatsServer, type ManagedNats } from "../../../server/nats/managed-nats.ts";
import { startServeProcess, type BuiltCli, type ServeProcess } from "../../helpers/serve-processes.ts";
import { buildRoot } from "../app-info.ts";
import { expect, test } from "../fixtures.ts";
import { FiskPage } from "../pages/fisk-page.ts";

/**
 * One identity served by three real `patchbay serve --nats` processes, seen from the page: the
 * instances view with each one's load, the instance that answered a call (tool-call timeline and
 * Traffic), and a NATS server restart shown as disconnected, then reconnected.
 */

const built: BuiltCli = { cli: join(buildRoot(), "dist/server/cli.js"), dir: buildRoot(), remove: async () => undefined };

test.describe("many instances of one identity", () => {
  const identity = `e2e-${crypto.randomUUID().slice(0, 8)}`;
  const processes: ServeProcess[] = [];

  test.afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
  });

  test("the instances view lists all three with their load, and a call names the instance that answered it, in the timeline and in Traffic", async ({ page, app, status }) => {
    expect(status.nats.url, "the app's managed nats-server").toBeTruthy();
    for (let i = 1; i <= 3; i++) processes.push(await startServeProcess(built, ["--nats-url", status.nats.url!, "--identity", identity, "--instance", `inst-${i}`, "--concurrency", "4"]));
    const fisk = new FiskPage(page);
    await fisk.openConnected(app.url);
    await fisk.openTab("Agents");

    const form = page.getByRole("form", { name: "Show instances" });
    await form.getByLabel("Identity").fill(identity);
    await form.getByRole("button", { name: "Show instances" }).click();
    const table = page.getByRole("table", { name: `Instances of ${identity}` });
    await expect(page.getByTestId("instances-summary")).toHaveText(`3 instance(s) of ${identity}`);
    for (let i = 1; i <= 3; i++) {
      const row = table.locator(`tr[data-instance="inst-${i}"]`);
      await expect(row).toBeVisible();
      // Tool calls and tasks in flight against each instance's capacity.
      await expect(row.getByRole("cell").nth(4)).toHaveText("0 / 4");
      await expect(row.getByRole("cell").nth(5)).toHaveText("0 / 4");
    }

    await fisk.discover(identity);
    await fisk.call("echo", '{"message": "who answers?"}');
    await fisk.expectOutcome("success: the tool ran in process", "ok");
    await expect(page.getByTestId("call-instance")).toHaveText(new RegExp(`^Answered by instance inst-[123] of ${identity}$`));
    const answeredBy = (await page.getByTestId("call-instance").textContent())!.match(/inst-\d/)![0];
    await expect(fisk.timelineRow("ack").locator("summary")).toContainText(`@${answeredBy}`);
    await expect(fisk.timelineRow("terminal (final)").locator("summary")).toContainText(`@${answeredBy}`);

    await fisk.openTab("Agents");
    await form.getByRole("button", { name: "Show instances" }).click();
    await expect(table.locator(`tr[data-instance="${answeredBy}"]`).getByRole("cell").nth(2)).not.toHaveText("0");

    await page.getByRole("tab", { name: "Traffic" }).click();
    await page.getByRole("searchbox", { name: "Search" }).fill("tool.reply");
    const frames = page.getByRole("listbox", { name: "Frames" }).getByRole("option");
    await expect(frames.last()).toContainText(`@${answeredBy}`);
    await frames.last().click();
    await expect(page.getByTestId("traffic-instance")).toHaveText(`from ${identity}, instance ${answeredBy}`);
  });
});

test.describe("a NATS server restart under the page", () => {
  let server: ManagedNats | undefined;

  test.afterEach(async () => {
    await server?.stop();
  });

  test("the page shows the connection lost, then reconnected once the server is back", async ({ page, app }) => {
    const started = await startNatsServer({ allowedOrigins: [app.origin] });
    if (!started.ok) throw new Error(started.message);
    server = started.server;
    const fisk = new FiskPage(page);
    await fisk.nats.open(app.url);
    await fisk.nats.connect(server.wsUrl);
    await expect(fisk.nats.state).toHaveText("connected");
    await expect(page.getByTestId("nats-node")).toContainText(`at 127.0.0.1:${server.ports.ws}`);

    await server.down();
    await expect(fisk.nats.state).toHaveText("reconnecting");
    await expect(page.getByTestId("nats-disconnected")).toContainText("Disconnected");
    await expect(page.getByTestId("status-nats")).toContainText("NATS: reconnecting");

    await server.up();
    const back = Date.now();
    await expect(fisk.nats.state).toHaveText("connected", { timeout: 10_000 });
    expect(Date.now() - back).toBeLessThan(5000);
    await expect(page.getByTestId("nats-reconnected")).toContainText(/^Reconnected after \d+\.\d s/);
    await expect(page.getByTestId("nats-disconnected")).toHaveCount(0);
  });
});
