import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, test } from "../fixtures.ts";
import { NatsPage } from "../pages/nats-page.ts";

test.describe("saved NATS connections live in the workspace", () => {
  test("save, reload the page, load it back; the file is versioned and holds no secret", async ({ page, app, status }) => {
    const nats = new NatsPage(page);
    const name = `e2e-${Date.now().toString(36)}`;
    await nats.open(app.url);
    await nats.serverUrl.fill("ws://127.0.0.1:9");
    await nats.connection.getByLabel("Authentication").selectOption("userpass");
    await nats.connection.getByLabel("User", { exact: true }).fill("console");
    await nats.connection.getByLabel("Password", { exact: true }).fill("hunter2-secret");
    await nats.connection.getByLabel("Save as").fill(name);
    await nats.connection.getByRole("button", { name: "Save" }).click();
    await expect(nats.connection.getByRole("status")).toContainText(`saved "${name}"`);

    const file = JSON.parse(await readFile(join(status.workspace, "connections", `${name}.json`), "utf8")) as Record<string, unknown>;
    expect(file).toMatchObject({
      format: "patchbay.connections",
      version: 1,
      data: { protocol: "nats", servers: "ws://127.0.0.1:9", auth: { mode: "userpass", user: "console" } },
    });
    expect(JSON.stringify(file)).not.toContain("hunter2-secret");

    await page.reload();
    // The reload kept the form as it was; change it so loading is what brings the values back.
    await nats.serverUrl.fill("ws://127.0.0.1:10");
    await nats.connection.getByLabel("User", { exact: true }).fill("someone-else");
    await nats.connection.getByLabel("Saved connections").selectOption(name);
    await expect(nats.serverUrl).toHaveValue("ws://127.0.0.1:9");
    await expect(nats.connection.getByLabel("User", { exact: true })).toHaveValue("console");
    await expect(nats.connection.getByLabel("Password", { exact: true })).toHaveValue("");
  });

  test("the Saved connections select is wide enough for the names it offers", async ({ page, app, status }) => {
    const nats = new NatsPage(page);
    // A name of ordinary length, as a team would give its clusters.
    const name = `staging-cluster-${Date.now().toString(36)}`;
    await nats.open(app.url);
    await nats.connection.getByLabel("Save as").fill(name);
    await nats.connection.getByRole("button", { name: "Save" }).click();
    await expect(nats.connection.getByRole("status")).toContainText(`saved "${name}"`);
    expect(status.workspace).not.toBe("");
    const select = nats.connection.getByLabel("Saved connections");
    await expect(select).toHaveValue(name);
    const room = await select.evaluate((el: HTMLSelectElement) => {
      const style = getComputedStyle(el);
      const ctx = document.createElement("canvas").getContext("2d")!;
      ctx.font = `${style.fontSize} ${style.fontFamily}`;
      const widest = Math.max(...[...el.options].map((o) => ctx.measureText(o.text).width));
      // The closed select shows its text beside the arrow: about 24 px of padding and arrow.
      return el.clientWidth - 24 - widest;
    });
    expect(room).toBeGreaterThanOrEqual(0);
  });

  test("a name the workspace cannot store is refused with the reason", async ({ page, app }) => {
    const nats = new NatsPage(page);
    await nats.open(app.url);
    await nats.connection.getByLabel("Save as").fill("../escape");
    await nats.connection.getByRole("button", { name: "Save" }).click();
    await expect(nats.connection.getByRole("alert")).toContainText("contains a path separator");
  });
});
