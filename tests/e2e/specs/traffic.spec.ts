import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "../fixtures.ts";
import { TrafficPage } from "../pages/traffic-page.ts";

const TOTAL = 100_000;
const BIG_INDEX = 50_000;
const BIG_SIZE = 1024 * 1024;
const CHANNELS = ["mcp", "a2a-http", "nats"] as const;

/** Index i's target; every tenth carries the token "zebra", which appears nowhere else. */
function target(i: number): string {
  if (i === TOTAL - 1) return "final.subject.last";
  if (i === BIG_INDEX) return "big.payload.subject";
  if (i % 10 === 3) return `orders.zebra.${i}`;
  return i % 3 === 1 ? `http://127.0.0.1:9/a2a/${i}` : `svc.echo.${i}`;
}

function payload(i: number): { bytes: { text: string } | { base64: string }; size: number } {
  if (i === BIG_INDEX) {
    const text = `{"blob":"${"a".repeat(BIG_SIZE - 11)}"}`;
    return { bytes: { text }, size: BIG_SIZE };
  }
  if (i % 50 === 7) {
    // Not UTF-8 (0xff), so it travels as base64; no letters that could spell the search token.
    const raw = Buffer.from([0xff, 0xfe, i & 0xff, (i >> 8) & 0xff, 0x00, 0x80]);
    return { bytes: { base64: raw.toString("base64") }, size: raw.length };
  }
  const text = JSON.stringify({ jsonrpc: "2.0", id: i, method: i % 2 ? "tools/call" : "tools/list" });
  return { bytes: { text }, size: Buffer.byteLength(text) };
}

function header(count: number): string {
  return JSON.stringify({ format: "patchbay.wirelog", version: 1, exportedAt: new Date().toISOString(), capacity: 100_000, dropped: 0, count });
}

function entryLine(i: number): string {
  const { bytes, size } = payload(i);
  return JSON.stringify({
    seq: i + 1,
    ts: 1000 + i * 0.25,
    wall: 1_700_000_000_000 + i,
    channel: CHANNELS[i % 3],
    direction: i % 2 ? "in" : "out",
    target: target(i),
    ...(i % 2 ? { status: i % 100 === 1 ? 503 : 200, rttMs: 1.5, correlationId: `c-${i - 1}` } : { correlationId: `c-${i}` }),
    size,
    bytes,
  });
}

test.describe("Traffic workbench", () => {
  let dir: string;
  let bigFile: string;
  let badFile: string;

  test.beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "patchbay-traffic-e2e-"));
    bigFile = join(dir, "big.jsonl");
    const lines = [header(TOTAL)];
    for (let i = 0; i < TOTAL; i++) lines.push(entryLine(i));
    writeFileSync(bigFile, lines.join("\n") + "\n");
    badFile = join(dir, "bad.jsonl");
    writeFileSync(badFile, [header(3), entryLine(0), "{broken", entryLine(2)].join("\n") + "\n");
  });

  test.afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  test("explains where frames come from when the log is empty", async ({ page, app }) => {
    const traffic = new TrafficPage(page);
    await traffic.open(app.url);
    await expect(traffic.empty).toContainText("recorded here verbatim");
    await traffic.expectShowing("0", "0");
  });

  test("100,000 imported entries stay virtualized, filter, truncate for display and export whole", async ({ page, app }) => {
    test.setTimeout(180_000);
    const traffic = new TrafficPage(page);
    await traffic.open(app.url);
    await traffic.importFile(bigFile);
    await expect(traffic.importReport).toContainText("Imported 100,000 entries");
    await traffic.expectShowing("100,000", "100,000");

    const rendered = await traffic.rows.count();
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(200);

    await traffic.list.press("End");
    const last = traffic.row(/final\.subject\.last/);
    await expect(last).toBeInViewport();
    await expect(last).toHaveAttribute("aria-selected", "true");
    await expect(last).toHaveAttribute("aria-posinset", "100000");
    expect(await traffic.rows.count()).toBeLessThan(200);
    await expect(traffic.detail).toContainText("final.subject.last");

    await traffic.search.fill("zebra");
    await traffic.expectShowing("10,000", "100,000");
    await expect(traffic.rows.first()).toContainText("orders.zebra.");

    await traffic.search.fill("big.payload.subject");
    await traffic.expectShowing("1", "100,000");
    await traffic.row(/big\.payload\.subject/).click();
    await expect(traffic.rawBytes).toContainText(`… 786,432 more bytes not shown (kept whole in exports)`);

    await traffic.search.fill("");
    await traffic.expectShowing("100,000", "100,000");
    const [download] = await Promise.all([page.waitForEvent("download"), traffic.exportButton.click()]);
    expect(download.suggestedFilename()).toMatch(/^patchbay-traffic-[0-9TZ-]+\.jsonl$/);
    const text = readFileSync(await download.path(), "utf8");
    const lines = text.split("\n");
    expect(lines.pop()).toBe("");
    expect(lines).toHaveLength(TOTAL + 1);
    expect(JSON.parse(lines[0] ?? "")).toMatchObject({ format: "patchbay.wirelog", version: 1, count: TOTAL });
    const big = JSON.parse(lines[BIG_INDEX + 1] ?? "") as { target: string; size: number; bytes: { text: string } };
    expect(big.target).toBe("big.payload.subject");
    expect(big.size).toBe(BIG_SIZE);
    expect(Buffer.byteLength(big.bytes.text)).toBe(BIG_SIZE);
    const binary = JSON.parse(lines[8] ?? "") as { bytes: unknown };
    expect(binary.bytes).toEqual(JSON.parse(entryLine(7)).bytes);
  });

  test("a malformed line is reported with its line number and the rest imported", async ({ page, app }) => {
    const traffic = new TrafficPage(page);
    await traffic.open(app.url);
    await traffic.importFile(badFile);
    await expect(traffic.importReport).toContainText("Imported 2 entries");
    await expect(traffic.importReport).toContainText("1 problem found");
    await expect(traffic.importProblems.getByRole("listitem")).toHaveText([/^Line 3: not JSON/]);
    await traffic.expectShowing("2", "2");
  });
});
