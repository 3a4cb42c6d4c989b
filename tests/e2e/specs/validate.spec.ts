import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "../fixtures.ts";
import { TrafficPage } from "../pages/traffic-page.ts";
import { ValidatePage } from "../pages/validate-page.ts";

const FISK = "io.choria.fisk-ai.v1";

function fiskHeader(protocol: string, sequence = 0): Record<string, unknown> {
  return {
    protocol: `${FISK}.${protocol}`,
    id: "3mL9xVQ2zg4mZaouqKLiMcVbpT4",
    request: "3xTNJFoBinF5aJXVuLkSIc47WQA",
    conversation: "3xTNJFoBinF5aJXVuLkSIc47WQA",
    sequence,
    time: "2026-08-21T09:14:05.001936412Z",
    sender: { name: "console-1" },
    recipient: { name: "nats-tools" },
  };
}

const { sender: _dropped, ...fiskHeaderWithoutSender } = fiskHeader("tool.request");

interface Expected {
  readonly status: "Valid" | "Error response" | "Invalid" | "Unrecognised" | "Unparseable";
  readonly pack?: RegExp;
  readonly kind?: RegExp;
}

/** The capture: one message per line, with the verdict each must get. */
const CAPTURE: readonly { readonly line: string; readonly expected: Expected }[] = [
  {
    line: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "probe", version: "1.0.0" } } }),
    expected: { status: "Valid", pack: /MCP 2025-06-18/, kind: /initialize request/ },
  },
  {
    line: JSON.stringify({ jsonrpc: "2.0", id: 1, result: { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "srv", version: "1.0.0" } } }),
    expected: { status: "Valid", pack: /MCP 2025-06-18/, kind: /initialize result/ },
  },
  {
    line: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "hi" } } }),
    expected: { status: "Valid", pack: /MCP 2025-06-18/, kind: /tools\/call request/ },
  },
  {
    line: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { arguments: { text: "hi" } } }),
    expected: { status: "Invalid", pack: /MCP 2025-06-18/, kind: /tools\/call request/ },
  },
  {
    line: JSON.stringify({ jsonrpc: "2.0", id: 3, error: { code: -32602, message: "Invalid params" } }),
    expected: { status: "Error response", pack: /MCP 2025-06-18/, kind: /error/i },
  },
  {
    line: JSON.stringify({
      jsonrpc: "2.0",
      id: "a-1",
      method: "message/send",
      params: { message: { kind: "message", messageId: "m-1", role: "user", parts: [{ kind: "text", text: "hello" }] } },
    }),
    expected: { status: "Valid", pack: /A2A /, kind: /message\/send/ },
  },
  {
    line: JSON.stringify({
      jsonrpc: "2.0",
      id: "a-2",
      method: "message/send",
      params: { message: { kind: "message", messageId: "m-2", role: "robot", parts: [{ kind: "text", text: "hello" }] } },
    }),
    expected: { status: "Invalid", pack: /A2A /, kind: /message\/send/ },
  },
  {
    line: JSON.stringify({ ...fiskHeader("tool.request"), name: "stream_info", input: { stream: "ORDERS" } }),
    expected: { status: "Valid", pack: /fisk-ai/, kind: /tool\.request/ },
  },
  {
    line: JSON.stringify({ ...fiskHeaderWithoutSender, name: "stream_info", input: { stream: "ORDERS" } }),
    expected: { status: "Invalid", pack: /fisk-ai/, kind: /tool\.request/ },
  },
  {
    line: JSON.stringify({ ...fiskHeader("error", 9), error: "the run failed", code: "failed" }),
    expected: { status: "Error response", pack: /fisk-ai/, kind: /error/ },
  },
  { line: '{"jsonrpc": "2.0", "id": 7, "method": tools/list}', expected: { status: "Unparseable" } },
];

const CAPTURE_TEXT = CAPTURE.map((c) => c.line).join("\n") + "\n";
/** The invalid tools/call request: its missing "name" is reported at "params". */
const INVALID_CALL = 3;

function countOf(status: Expected["status"]): number {
  return CAPTURE.filter((c) => c.expected.status === status).length;
}

const BULK = 100_000;
/** Every seventh tools/call lacks its name; every seventh message/send has a bad role. */
const BULK_INVALID = Array.from({ length: BULK }, (_, i) => i).filter((i) => i % 3 !== 2 && i % 7 === i % 3).length;

/** Generated capture for the bulk run: MCP, A2A and fisk-ai, every seventh message invalid. */
function bulkLine(i: number): string {
  switch (i % 3) {
    case 0:
      return JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call", params: i % 7 === 0 ? { arguments: {} } : { name: `tool-${i}`, arguments: { n: i } } });
    case 1:
      return JSON.stringify({
        jsonrpc: "2.0",
        id: `a-${i}`,
        method: "message/send",
        params: { message: { kind: "message", messageId: `m-${i}`, role: i % 7 === 1 ? "robot" : "user", parts: [{ kind: "text", text: `hello ${i}` }] } },
      });
    default:
      return JSON.stringify({ ...fiskHeader("tool.request"), id: `id${i}`, name: "stream_info", input: { stream: `S${i}` } });
  }
}

function trafficExport(payloads: readonly string[]): string {
  const header = { format: "patchbay.wirelog", version: 1, exportedAt: new Date().toISOString(), capacity: 1000, dropped: 0, count: payloads.length };
  const entries = payloads.map((text, i) =>
    JSON.stringify({ seq: i + 1, ts: 1000 + i, wall: 1_700_000_000_000 + i, channel: "mcp", direction: "out", target: "http://127.0.0.1:9/mcp", size: Buffer.byteLength(text), bytes: { text } }),
  );
  return [JSON.stringify(header), ...entries].join("\n") + "\n";
}

test.describe("Validate workbench", () => {
  let dir: string;
  let bulkFile: string;

  test.beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "patchbay-validate-e2e-"));
    bulkFile = join(dir, "bulk.jsonl");
    writeFileSync(bulkFile, Array.from({ length: BULK }, (_, i) => bulkLine(i)).join("\n") + "\n");
  });

  test.afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  test("a dropped JSONL capture gets one verdict per message, with problems marked in the editor, and exports a report", async ({ page, app }) => {
    const validate = new ValidatePage(page);
    await validate.open(app.url);
    await validate.dropFile("capture.jsonl", CAPTURE_TEXT);
    await validate.expectValidated(CAPTURE.length);

    const counts = { Valid: countOf("Valid"), "Error response": countOf("Error response"), Invalid: countOf("Invalid"), Unrecognised: 0, Unparseable: 1 };
    await validate.expectCounts(validate.statusCounts, counts);
    await validate.expectCounts(validate.familyCounts, { MCP: 5, A2A: 2, "fisk-ai": 3 });
    await expect(validate.rows).toHaveCount(CAPTURE.length);
    for (const [i, { expected }] of CAPTURE.entries()) {
      const row = validate.rows.nth(i);
      await expect(row, `row ${i}`).toContainText(expected.status);
      if (expected.pack) await expect(row, `row ${i} pack`).toContainText(expected.pack);
      if (expected.kind) await expect(row, `row ${i} kind`).toContainText(expected.kind);
    }
    await expect(validate.rows.nth(CAPTURE.length - 1)).toContainText("Not JSON");

    // The invalid tools/call: "name" is missing from params, so the problem sits on params' value.
    const invalidLine = CAPTURE[INVALID_CALL]!.line;
    const column = invalidLine.indexOf('"params":') + '"params":'.length + 1;
    await validate.rows.nth(INVALID_CALL).click();
    await validate.editor.waitReady();
    await expect(validate.verdict).toContainText("tools/call request");
    const issue = validate.issues.filter({ hasText: '"name"' });
    await expect(issue).toHaveCount(1);
    await expect(issue).toContainText(`1:${column}`);
    await expect(issue).toContainText("/params");
    await expect(validate.editor.problemAt(`1:${column}`)).toHaveCount(1);
    await expect(validate.errorMarks.first()).toBeAttached();

    // The verdict's pack says where its facts come from and how it deliberately differs from upstream.
    await expect(validate.aboutPack).toHaveJSProperty("open", false);
    await expect(validate.packSources.first()).toBeHidden();
    await validate.openAboutPack();
    await expect(validate.aboutPack).toContainText("MCP 2025-06-18");
    await expect(validate.aboutPack).toContainText(/JSON Schema (draft-07|2020-12)/);
    await expect(validate.packSources.first()).toBeVisible();
    await expect(validate.packSources.first()).toHaveAttribute("href", /^https:\/\//);
    expect(await validate.packNotes.count()).toBeGreaterThan(0);
    await expect(validate.packNotes.first()).not.toBeEmpty();

    // Formatted, the problem moves to a line of its own; its position button puts the caret there.
    await page.getByRole("button", { name: "Format" }).click();
    const position = validate.issues.filter({ hasText: '"name"' }).getByRole("button", { name: /^\d+:\d+$/ });
    await expect(position).not.toHaveText(`1:${column}`);
    const line = (await position.textContent())!.split(":")[0]!;
    expect(Number(line)).toBeGreaterThan(1);
    await position.click();
    await expect(validate.editor.activeLine()).toHaveText(line);

    // Keyboard: the next row opens the next message.
    await validate.list.press("ArrowDown");
    await expect(validate.rows.nth(INVALID_CALL + 1)).toHaveAttribute("aria-selected", "true");
    await expect(validate.verdict).toContainText("Error response");

    await validate.filter.selectOption("problems");
    await expect(validate.rows).toHaveCount(countOf("Invalid") + 1);

    const [download] = await Promise.all([page.waitForEvent("download"), validate.exportButton.click()]);
    expect(download.suggestedFilename()).toMatch(/^patchbay-validation-[0-9TZ-]+\.json$/);
    const report = JSON.parse(readFileSync(await download.path(), "utf8")) as {
      format: string;
      summary: { total: number; byStatus: Record<string, number> };
      inputs: { source: string; format: string; messages: number }[];
      messages: { status: string; line?: number }[];
    };
    expect(report.format).toBe("patchbay.validation-report");
    expect(report.inputs).toEqual([expect.objectContaining({ source: "capture.jsonl", format: "jsonl", messages: CAPTURE.length })]);
    expect(report.summary.total).toBe(CAPTURE.length);
    expect(report.summary.byStatus).toEqual({
      valid: counts.Valid,
      "error-response": counts["Error response"],
      invalid: counts.Invalid,
      unrecognised: 0,
      unparseable: 1,
    });
    expect(report.messages.map((m) => m.line)).toEqual(CAPTURE.map((_, i) => i + 1));
  });

  test("editing the message re-validates it, and an override checks it as another kind", async ({ page, app }) => {
    const validate = new ValidatePage(page);
    await validate.open(app.url);
    await validate.paste.fill(CAPTURE[INVALID_CALL]!.line);
    await validate.validateButton.click();
    await validate.expectValidated(1);
    await validate.editor.waitReady();
    await expect(validate.verdict).toContainText("Invalid");

    await validate.editor.replaceText(CAPTURE[2]!.line);
    await expect(validate.verdict).toContainText("Valid");
    await expect(validate.issues).toHaveCount(0);
    await expect(validate.detail).toContainText("Edited");

    await validate.packSelect.selectOption({ label: "MCP 2025-06-18" });
    await validate.kindSelect.selectOption({ label: "initialize request" });
    await expect(validate.verdict).toContainText("chosen by you");
    await expect(validate.verdict).toContainText("Invalid");

    // The split between the list and the open message moves with the keyboard.
    const detailHeight = async () => (await validate.detail.boundingBox())?.height ?? 0;
    const before = await detailHeight();
    await validate.splitter.focus();
    await validate.page.keyboard.press("End");
    await expect(validate.splitter).toHaveAttribute("aria-valuenow", "80");
    await expect.poll(detailHeight).toBeGreaterThan(before + 50);
    await validate.page.keyboard.press("ArrowDown");
    await expect(validate.splitter).toHaveAttribute("aria-valuenow", "75");
  });

  test("Traffic hands a frame, or every frame, to Validate", async ({ page, app }) => {
    const file = join(dir, "traffic.jsonl");
    writeFileSync(file, trafficExport([CAPTURE[2]!.line, CAPTURE[INVALID_CALL]!.line, CAPTURE[7]!.line]));
    const traffic = new TrafficPage(page);
    await traffic.open(app.url);
    await traffic.importFile(file);
    await traffic.expectShowing("3", "3");

    await traffic.rows.nth(1).click();
    await traffic.detail.getByRole("button", { name: "Validate frame" }).click();
    const validate = new ValidatePage(page);
    await expect(validate.tab).toHaveAttribute("aria-selected", "true");
    await expect(page).toHaveURL(/#\/validate$/);
    await validate.expectValidated(1);
    await expect(validate.rows).toHaveCount(1);
    await expect(validate.rows.first()).toContainText("frame #2 mcp out");
    await expect(validate.rows.first()).toContainText("Invalid");
    await validate.editor.waitReady();
    await expect(validate.editor.textbox).toBeAttached();
    await expect(validate.issues.filter({ hasText: '"name"' })).toHaveCount(1);

    await page.getByRole("tab", { name: "Traffic" }).click();
    await page.getByRole("button", { name: "Validate all frames" }).click();
    await validate.expectValidated(3);
    await validate.expectCounts(validate.statusCounts, { Valid: 2, Invalid: 1 });
    await validate.expectCounts(validate.familyCounts, { MCP: 2, "fisk-ai": 1 });
  });

  test("each run replaces the last: rows, the message a row opens and the Show filter follow three runs in a row", async ({ page, app }) => {
    const inert: string[] = [];
    page.on("console", (message) => {
      if (message.text().includes("derived_inert")) inert.push(message.text());
    });
    const file = join(dir, "traffic-runs.jsonl");
    writeFileSync(file, trafficExport([CAPTURE[2]!.line, CAPTURE[INVALID_CALL]!.line, CAPTURE[7]!.line]));
    const traffic = new TrafficPage(page);
    await traffic.open(app.url);
    await traffic.importFile(file);
    await traffic.expectShowing("3", "3");
    const validate = new ValidatePage(page);

    // Run 1: one frame, handed over from Traffic (Validate mounts for the first time).
    await traffic.rows.nth(1).click();
    await traffic.detail.getByRole("button", { name: "Validate frame" }).click();
    await validate.expectValidated(1);
    await validate.expectRowsOpenTheirMessages(["frame #2 mcp out"]);

    // Run 2: every frame, after Validate was left and mounted again.
    await page.getByRole("tab", { name: "Traffic" }).click();
    await page.getByRole("button", { name: "Validate all frames" }).click();
    await validate.expectValidated(3);
    await validate.expectCounts(validate.statusCounts, { Valid: 2, Invalid: 1 });
    await validate.expectRowsOpenTheirMessages(["frame #1 mcp out", "frame #2 mcp out", "frame #3 mcp out"]);
    await validate.filter.selectOption("problems");
    await validate.expectRowsOpenTheirMessages(["frame #2 mcp out"]);
    await validate.filter.selectOption("all");
    await expect(validate.rows).toHaveCount(3);

    // Run 3: a paste, with a filter left on from before.
    await validate.filter.selectOption("valid");
    const pasted = [CAPTURE[0]!, CAPTURE[3]!, CAPTURE[5]!, CAPTURE[10]!, CAPTURE[1]!];
    await validate.paste.fill(pasted.map((c) => c.line).join("\n"));
    await validate.validateButton.click();
    await validate.expectValidated(pasted.length);
    await validate.expectCounts(validate.statusCounts, { Valid: 3, Invalid: 1, Unparseable: 1 });
    await validate.expectRowsOpenTheirMessages(["pasted #0 (line 1)", "pasted #2 (line 3)", "pasted #4 (line 5)"]);
    await validate.filter.selectOption("problems");
    await validate.expectRowsOpenTheirMessages(["pasted #1 (line 2)", "pasted #3 (line 4)"]);
    await validate.filter.selectOption("all");
    await validate.expectRowsOpenTheirMessages(pasted.map((_, i) => `pasted #${i} (line ${i + 1})`));

    // Run 4: another paste, shorter than the last.
    await validate.paste.fill([CAPTURE[4]!.line, CAPTURE[8]!.line].join("\n"));
    await validate.validateButton.click();
    await validate.expectValidated(2);
    await validate.expectCounts(validate.statusCounts, { Valid: 0, "Error response": 1, Invalid: 1, Unparseable: 0 });
    await validate.expectRowsOpenTheirMessages(["pasted #0 (line 1)", "pasted #1 (line 2)"]);
    await validate.filter.selectOption("error-response");
    await validate.expectRowsOpenTheirMessages(["pasted #0 (line 1)"]);
    expect(inert, "Svelte's derived_inert warnings").toEqual([]);
  });

  test("100,000 messages validate in the worker with progress while the tab stays responsive", async ({ page, app }) => {
    test.setTimeout(180_000);
    const validate = new ValidatePage(page);
    await validate.open(app.url);

    // Longest gap between timer ticks on the page: long tasks on the main thread show up here.
    await page.evaluate(() => {
      const probe = { maxGap: 0, last: performance.now() };
      (window as unknown as { probe: typeof probe }).probe = probe;
      setInterval(() => {
        const now = performance.now();
        probe.maxGap = Math.max(probe.maxGap, now - probe.last);
        probe.last = now;
      }, 10);
    });
    await validate.fileInput.setInputFiles(bulkFile);
    await expect(validate.status).toContainText("Validating…");
    await expect(validate.progress).toBeVisible();
    // A click while the worker is busy is handled at once.
    const html = page.locator("html");
    const before = await html.getAttribute("data-theme");
    await page.getByRole("button", { name: /^Switch to (dark|light) theme$/ }).click();
    await expect(html).not.toHaveAttribute("data-theme", before ?? "", { timeout: 1000 });

    await validate.expectValidated(BULK, 120_000);
    await expect(validate.progress).toHaveAttribute("value", String(BULK));
    await expect(validate.progress).toHaveAttribute("max", String(BULK));
    await validate.expectCounts(validate.statusCounts, { Valid: BULK - BULK_INVALID, Invalid: BULK_INVALID, Unparseable: 0 });
    expect(await validate.rows.count()).toBeLessThan(200);
    // With no message open the list takes the height the bars above leave: well over half the window.
    expect((await validate.list.boundingBox())?.height ?? 0, "verdict list height (px)").toBeGreaterThan(400);
    const maxGap = await page.evaluate(() => (window as unknown as { probe: { maxGap: number } }).probe.maxGap);
    test.info().annotations.push({ type: "run", description: `${await validate.status.textContent()} Longest main-thread gap: ${maxGap.toFixed(0)} ms.` });
    expect(maxGap, "longest main-thread stall during the run (ms)").toBeLessThan(1000);

    await validate.list.press("End");
    await expect(validate.rows.last()).toHaveAttribute("aria-posinset", String(BULK));
    await expect(validate.rows.last()).toHaveAttribute("aria-selected", "true");
    await validate.filter.selectOption("problems");
    await expect(validate.rows.first()).toContainText("Invalid");
  });

  test("a long run can be cancelled, keeping what was validated", async ({ page, app }) => {
    test.setTimeout(120_000);
    const validate = new ValidatePage(page);
    await validate.open(app.url);
    await validate.fileInput.setInputFiles(bulkFile);
    await expect(validate.status).toContainText("Validating…");
    await validate.cancelButton.click();
    await expect(validate.status).toContainText("Cancelled after");
    await expect(validate.cancelButton).toHaveCount(0);
    expect(await validate.rows.count()).toBeGreaterThan(0);
  });
});
