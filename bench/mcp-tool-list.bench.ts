/**
 * The MCP workbench's tool list in Chromium, against a production build served by the real
 * backend: the time from the tools list being set in state to the list painted (the UI's
 * "patchbay:mcp-tools-render" measure), for 10,000 tools and for 100 tools from the same
 * generated server over stdio, and a plain 10,000-row DOM list built in the same page and timed
 * the same way, alternating in each round. Goal: 10,000 tools render in under 100 ms.
 * Usage: node bench/run.mjs mcp-tool-list [--tools 10000] [--rounds 5] [--build <folder with dist/>]
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { type Browser, chromium, type Page } from "@playwright/test";
import { waitForLaunchUrl } from "../tests/helpers/launch-url.ts";
import { median, option } from "./bench-stats.ts";

const GOAL_MS = 100;
const SMALL = 100;
const PAGE_SIZE = 500;
const MEASURE = "patchbay:mcp-tools-render";
const ROOT = process.cwd();
const SERVER = join(ROOT, "tests/fixtures/mcp/many-tools-server.mjs");
const CHROMIUM = process.env["PATCHBAY_CHROMIUM"] ?? "/usr/bin/chromium";
const execAsync = promisify(execFile);

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

/** A production build in its own folder (as scripts/e2e-build.sh makes one), never the shared dist/. */
async function buildInto(dir: string): Promise<void> {
  const vite = join(ROOT, "node_modules/.bin/vite");
  await execAsync(vite, ["build", "--logLevel", "warn", "--outDir", join(dir, "dist/client"), "--emptyOutDir"], { cwd: ROOT });
  await execAsync(vite, ["build", "--logLevel", "warn", "-c", "vite.server.config.ts", "--outDir", join(dir, "dist/server"), "--emptyOutDir"], { cwd: ROOT });
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  symlinkSync(join(ROOT, "package.json"), join(dir, "package.json"));
}

async function startBackend(buildDir: string, workspace: string): Promise<{ child: ChildProcess; url: URL }> {
  const child = spawn(process.execPath, [join(buildDir, "dist/server/cli.js"), "start", "--port", "0", "--workspace", workspace], {
    cwd: ROOT,
    env: { ...process.env, NATS_URL: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return { child, url: await waitForLaunchUrl(child, 30_000) };
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill("SIGINT");
  });
}

/** Connects the workbench to the generated server with `tools` tools; resolves with that list's render time. */
async function renderTools(page: Page, tools: number): Promise<number> {
  const form = page.getByRole("form", { name: "MCP connection" });
  const before = await page.evaluate((name) => performance.getEntriesByName(name, "measure").length, MEASURE);
  await form.getByLabel("Transport").selectOption("stdio");
  await form.getByLabel("Command").fill(process.execPath);
  await form.getByLabel("Arguments (one per line)").fill([SERVER, "--tools", String(tools), "--page-size", String(PAGE_SIZE)].join("\n"));
  await form.getByRole("button", { name: "Connect", exact: true }).click();
  await page.getByTestId("mcp-tool-count").filter({ hasText: new RegExp(`^${tools}$`) }).waitFor({ timeout: 60_000 });
  try {
    await page.waitForFunction(([name, n]) => performance.getEntriesByName(name as string, "measure").length > (n as number), [MEASURE, before] as const, { timeout: 10_000 });
  } catch {
    throw new Error(`no "${MEASURE}" measure appeared: the build lacks the tool list's render hook`);
  }
  const ms = await page.evaluate((name) => performance.getEntriesByName(name, "measure").at(-1)!.duration, MEASURE);
  await form.getByRole("button", { name: "Disconnect", exact: true }).click();
  await page.getByTestId("mcp-state").filter({ hasText: "idle" }).waitFor();
  return ms;
}

/** The baseline: `rows` plain list items appended at once, timed from the start to the next paint. */
function renderPlainList(page: Page, rows: number): Promise<number> {
  return page.evaluate(async (n) => {
    const start = performance.now();
    const host = document.createElement("div");
    host.style.cssText = "position:fixed;left:0;top:0;width:320px;height:280px;overflow:auto;background:inherit";
    const list = document.createElement("ul");
    for (let i = 0; i < n; i++) {
      const item = document.createElement("li");
      item.textContent = `tool-${String(i).padStart(4, "0")}`;
      list.append(item);
    }
    host.append(list);
    document.body.append(host);
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    const ms = performance.now() - start;
    host.remove();
    return ms;
  }, rows);
}

export async function run(args: readonly string[]): Promise<number> {
  const tools = option(args, "--tools", 10_000);
  const rounds = option(args, "--rounds", 5);
  const at = args.indexOf("--build");
  const given = at >= 0 ? args[at + 1] : undefined;
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}`);
  const scratch = mkdtempSync(join(tmpdir(), "patchbay-bench-tools-"));
  let backend: ChildProcess | undefined;
  let browser: Browser | undefined;
  try {
    const buildDir = given ?? join(scratch, "build");
    if (!given) await buildInto(buildDir);
    if (!existsSync(join(buildDir, "dist/client/index.html")) || !existsSync(join(buildDir, "dist/server/cli.js"))) {
      throw new Error(`${buildDir} holds no build: expected dist/client/index.html and dist/server/cli.js`);
    }
    const started = await startBackend(buildDir, join(scratch, "workspace"));
    backend = started.child;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"] });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(started.url.href);
    await page.getByRole("tab", { name: "MCP" }).click();

    // One warm-up of each, so the first measured round pays no compile or first-spawn costs.
    await renderTools(page, SMALL);
    await renderPlainList(page, tools);
    const small: number[] = [];
    const big: number[] = [];
    const plain: number[] = [];
    for (let r = 0; r < rounds; r++) {
      small.push(await renderTools(page, SMALL));
      big.push(await renderTools(page, tools));
      plain.push(await renderPlainList(page, tools));
    }
    const [s, b, p] = [median(small), median(big), median(plain)];
    const count = tools.toLocaleString("en-US");
    process.stdout.write(
      [
        `mcp-tool-list bench: Chromium (${CHROMIUM}), production build, ${rounds} alternating rounds, medians; set in state → painted`,
        `  MCP tool list, ${SMALL} tools:          ${fmt(s)}   (rounds: ${small.map(fmt).join(", ")})`,
        `  MCP tool list, ${count} tools:       ${fmt(b)}   (rounds: ${big.map(fmt).join(", ")})`,
        `  plain DOM list, ${count} rows:       ${fmt(p)}   (rounds: ${plain.map(fmt).join(", ")})`,
        `  ratio ${count} tools / ${SMALL} tools: ${(b / s).toFixed(2)}; ${count} tools / plain ${count}-row list: ${(b / p).toFixed(2)}`,
        `  ${count} tools render in ${fmt(b)}; goal < ${GOAL_MS} ms: ${b < GOAL_MS ? "met" : "NOT met"}`,
      ].join("\n") + "\n",
    );
    return 0;
  } finally {
    await browser?.close();
    if (backend) await stop(backend);
    rmSync(scratch, { recursive: true, force: true });
  }
}
