import { join } from "node:path";
import { ROOT } from "../app-info.ts";
import { expect, test } from "../fixtures.ts";
import { McpFormPage } from "../pages/mcp-form-page.ts";
import { McpPage } from "../pages/mcp-page.ts";

const SERVER = join(ROOT, "tests/fixtures/mcp/nested-schema-server.mjs");

async function openTool(mcp: McpPage, form: McpFormPage, tool: string): Promise<void> {
  await mcp.connectStdio(process.execPath, [SERVER], "2025-06-18");
  await expect(mcp.state).toHaveText("connected", { timeout: 20_000 });
  await mcp.selectTool(tool);
  await form.editor.waitReady();
  await expect(form.form).toBeVisible();
}

test.describe("MCP tool call form generated from a nested inputSchema", () => {
  test("fills objects, arrays of objects, an enum, a oneOf and $ref members; the editor follows; the call echoes them", async ({ page, app }) => {
    const mcp = new McpPage(page);
    const form = new McpFormPage(page);
    await mcp.open(app.url);
    await openTool(mcp, form, "plan-shipment");

    // A free-form map and a recursive definition are left to the editor, and the form says why.
    await expect(form.group("extra")).toContainText("Edit this in the JSON editor: its members have free-form names (additionalProperties), which a form cannot list.");
    await form.group("labels").getByRole("button", { name: "Add labels" }).click();
    await expect(form.group("children", form.group("labels"))).toContainText("recursive schema a form cannot unfold");
    await form.group("labels").getByRole("button", { name: "Remove labels" }).click();

    await form.fillDefaults.click();
    await expect.poll(() => form.editorJson()).toEqual({
      customer: { name: "" },
      priority: "normal",
      items: [{ sku: "", quantity: 1 }],
      delivery: { method: "pickup", store: "Oslo" },
      note: null,
    });

    const customer = form.group("customer");
    await form.field("name", customer).fill("Ada Lovelace");
    await customer.getByRole("button", { name: "Add Address" }).click();
    await form.field("city", form.group("Address", customer)).fill("Bergen");

    await form.field("sku", form.group("items 1")).fill("A-1");
    await form.field("quantity", form.group("items 1")).fill("2");
    await form.form.getByRole("button", { name: "Add items item" }).click();
    await form.field("sku", form.group("items 2")).fill("B-2");
    await form.field("gift", form.group("items 2")).check();
    await form.form.getByRole("button", { name: "Move items 2 up" }).click();
    // The keyboard stays with the moved item.
    await expect(form.form.getByRole("button", { name: "Move items 1 down" })).toBeFocused();
    await expect(form.field("sku", form.group("items 1"))).toHaveValue("B-2");

    const delivery = form.group("delivery");
    await delivery.getByLabel("delivery variant").selectOption("Courier");
    await form.field("city", form.group("Address", delivery)).fill("Oslo");
    await form.field("priority").selectOption("high");
    await form.field("note is null").uncheck();
    await form.field("note").fill("Ring twice");

    const sent = {
      customer: { name: "Ada Lovelace", address: { city: "Bergen", country: "NO" } },
      priority: "high",
      items: [
        { sku: "B-2", quantity: 1, gift: true },
        { sku: "A-1", quantity: 2 },
      ],
      delivery: { method: "courier", address: { city: "Oslo", country: "NO" } },
      note: "Ring twice",
    };
    await expect.poll(() => form.editorJson()).toEqual(sent);

    await mcp.send.click();
    await expect(mcp.outcome).toHaveText("Success");
    await expect(mcp.content).toContainText(`plan-shipment received ${JSON.stringify(sent)}`);
    await expect(mcp.outcomeRaw).toContainText('"method": "courier"');
  });

  test("editor typing is never rewritten, bad JSON makes the form read-only, unknown members survive form edits", async ({ page, app }) => {
    const mcp = new McpPage(page);
    const form = new McpFormPage(page);
    await mcp.open(app.url);
    await openTool(mcp, form, "plan-shipment");

    const half = '{"customer": {"name": "X"}, "mine": [1,2], "items": [';
    await form.editor.replaceText(half);
    await expect(form.error).toContainText("The editor text is not valid JSON:");
    await expect(form.error).toContainText("The form is read-only until it parses again.");
    await expect(form.fillDefaults).toBeDisabled();
    await expect(form.group("customer").getByRole("button", { name: "Add customer" })).toBeDisabled();
    await expect.poll(() => form.editorText()).toBe(half);

    const typed = '{"customer": {"name": "X"},   "mine": [1,2]}';
    await form.editor.replaceText(typed);
    await expect(form.error).toHaveCount(0);
    await expect(form.field("name", form.group("customer"))).toHaveValue("X");
    await expect(form.form).toContainText("Kept from the editor, not in the schema: mine.");
    // Reading the text into the form did not touch it: the odd spacing is still there.
    await expect.poll(() => form.editorText()).toBe(typed);

    await form.field("name", form.group("customer")).fill("Y");
    await expect.poll(() => form.editorJson()).toEqual({ customer: { name: "Y" }, mine: [1, 2] });
    await expect.poll(() => form.editorText()).toBe('{\n  "customer": {\n    "name": "Y"\n  },\n  "mine": [\n    1,\n    2\n  ]\n}');

    // Ctrl/Cmd+Enter from a form field sends the call.
    await form.field("name", form.group("customer")).press("ControlOrMeta+Enter");
    await expect(mcp.outcome).toHaveText("Success");
    await expect(mcp.content).toContainText('plan-shipment received {"customer":{"name":"Y"},"mine":[1,2]}');

    // The views: form only, JSON only, both.
    await form.view("JSON").click();
    await expect(form.form).toBeHidden();
    await expect(form.editor.group).toBeVisible();
    await form.view("Form").click();
    await expect(form.form).toBeVisible();
    await expect(form.editor.group).toBeHidden();
    await page.keyboard.press("ArrowLeft");
    await expect(form.view("Form and JSON")).toHaveAttribute("aria-selected", "true");
    await expect(form.editor.group).toBeVisible();
  });
});
