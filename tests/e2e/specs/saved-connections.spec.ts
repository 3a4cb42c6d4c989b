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
    await nats.connection.getByLabel("Saved connections").selectOption(name);
    await expect(nats.serverUrl).toHaveValue("ws://127.0.0.1:9");
    await expect(nats.connection.getByLabel("User", { exact: true })).toHaveValue("console");
    await expect(nats.connection.getByLabel("Password", { exact: true })).toHaveValue("");
  });

  test("a name the workspace cannot store is refused with the reason", async ({ page, app }) => {
    const nats = new NatsPage(page);
    await nats.open(app.url);
    await nats.connection.getByLabel("Save as").fill("../escape");
    await nats.connection.getByRole("button", { name: "Save" }).click();
    await expect(nats.connection.getByRole("alert")).toContainText("contains a path separator");
  });
});
