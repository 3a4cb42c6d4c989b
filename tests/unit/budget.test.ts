import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import * as budget from "../../scripts/budget.mjs";

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), "../../scripts/budget.mjs");

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Writes a fake dist folder: index.html plus files under it. */
function fakeDist(html: string, files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), "patchbay-budget-"));
  dirs.push(dir);
  writeFileSync(join(dir, "index.html"), html);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

const page = (head: string) => `<!doctype html><html><head>${head}</head><body><div id="app"></div></body></html>`;
const ENTRY = `<script type="module" crossorigin src="/assets/index-1.js"></script>`;
const gz = (s: string | Buffer) => gzipSync(s, { level: 9 }).length;
/** Incompressible bytes, so the gzip size is known to exceed `n`. */
const noise = (n: number) => randomBytes(n);

describe("bundle budget", () => {
  it("passes a small build and sums exactly the first-paint files at gzip level 9", () => {
    const js = `console.log("app");`.repeat(50);
    const css = `body{color:red}`.repeat(20);
    const preload = `export const x=1;`;
    const dist = fakeDist(
      page(`${ENTRY}<link rel="modulepreload" href="/assets/shared-2.js"><link rel="stylesheet" href="/assets/index-3.css"><link rel="icon" href="/favicon.svg">`),
      { "assets/index-1.js": js, "assets/shared-2.js": preload, "assets/index-3.css": css, "favicon.svg": "<svg/>" },
    );
    const result = budget.measureBudget({ distDir: dist });
    expect(result.ok).toBe(true);
    expect(result.files.map((f) => [f.name, f.via])).toEqual([
      ["assets/index-1.js", "entry script"],
      ["assets/shared-2.js", "modulepreload"],
      ["assets/index-3.css", "stylesheet"],
    ]);
    expect(result.totalGzip).toBe(gz(js) + gz(preload) + gz(css));
    expect(budget.formatReport(result)).toContain(`First-paint JS+CSS: ${(result.totalGzip / 1024).toFixed(1)} KB gzip (budget 150 KB)`);
  });

  it("fails a build over 150 KB gzip", () => {
    const dist = fakeDist(page(ENTRY), { "assets/index-1.js": noise(160 * 1024) });
    const result = budget.measureBudget({ distDir: dist });
    expect(result.totalGzip).toBeGreaterThan(150 * 1024);
    expect(result.ok).toBe(false);
    expect(result.problems.join("\n")).toMatch(/over the 150\.0 KB budget/);
  });

  it("follows the static import chain but not dynamic imports", () => {
    const dist = fakeDist(page(ENTRY), {
      "assets/index-1.js": `import{a as b}from"./a-1.js";import"./side-1.js";const l=()=>import("./lazy-1.js");b(l);`,
      "assets/a-1.js": `import * as c from "./nested/c-1.js";\nexport{d}from"./d-1.js";export const a=c;`,
      "assets/nested/c-1.js": `export const c = 1;`,
      "assets/d-1.js": `export const d = 2;`,
      "assets/side-1.js": `import"./a-1.js";`,
      "assets/lazy-1.js": noise(200 * 1024),
    });
    const result = budget.measureBudget({ distDir: dist });
    expect(result.files.map((f) => f.name).sort()).toEqual(
      ["assets/a-1.js", "assets/d-1.js", "assets/index-1.js", "assets/nested/c-1.js", "assets/side-1.js"].sort(),
    );
    expect(result.files.find((f) => f.name === "assets/nested/c-1.js")?.via).toBe("imported by assets/a-1.js");
    expect(result.ok).toBe(true);
  });

  it("reads import specifiers from minified and spaced code alike", () => {
    const code = `import x,{y as z}from"./one.js";export*from'./two.js';\nimport * as w from "./three.js"\nconst q=import("./dyn.js");s="import";`;
    expect(budget.staticImports(code)).toEqual(["./one.js", "./two.js", "./three.js"]);
  });

  it("fails when a Monaco chunk is statically imported, by name", () => {
    const dist = fakeDist(page(ENTRY), {
      "assets/index-1.js": `import"./editor.api-9.js";`,
      "assets/editor.api-9.js": `export const e=1;`,
    });
    const result = budget.measureBudget({ distDir: dist });
    expect(result.ok).toBe(false);
    expect(result.problems).toContain("Monaco is in the first-paint bundle: assets/editor.api-9.js (imported by assets/index-1.js)");
  });

  it("fails when Monaco's code hides in an innocently named first-paint file, by marker", () => {
    const dist = fakeDist(page(`${ENTRY}<link rel="stylesheet" href="/assets/index-2.css">`), {
      "assets/index-1.js": `self.MonacoEnvironment={getWorker(){}};`,
      "assets/index-2.css": `.monaco-editor .view-lines{}`,
    });
    const result = budget.measureBudget({ distDir: dist });
    expect(result.files.filter((f) => f.monaco).map((f) => f.name)).toEqual(["assets/index-1.js", "assets/index-2.css"]);
    expect(result.ok).toBe(false);
  });

  it("lists lazily loaded Monaco chunks for information without failing", () => {
    const dist = fakeDist(page(ENTRY), {
      "assets/index-1.js": `const m=()=>import("./monaco-loader-1.js");m();`,
      "assets/monaco-loader-1.js": `self.MonacoEnvironment={};` + "x".repeat(5000),
      "assets/json.worker-1.js": `postMessage(1)`,
    });
    const result = budget.measureBudget({ distDir: dist });
    expect(result.ok).toBe(true);
    expect(result.lazyMonaco.map((f) => f.name).sort()).toEqual(["assets/json.worker-1.js", "assets/monaco-loader-1.js"]);
    expect(budget.formatReport(result)).toMatch(/Monaco, loaded only when an editor opens: [\d.]+ KB gzip in 2 files/);
  });

  it("fails on a missing dist folder or a missing referenced file", () => {
    const missing = budget.measureBudget({ distDir: join(tmpdir(), "patchbay-budget-does-not-exist") });
    expect(missing.ok).toBe(false);
    expect(missing.problems[0]).toMatch(/index\.html not found/);
    const dist = fakeDist(page(ENTRY), {});
    const broken = budget.measureBudget({ distDir: dist });
    expect(broken.problems).toEqual(["first paint references a missing file: /assets/index-1.js (entry script)"]);
  });

  it("runs as a command: prints the figure and exits 1 only when over budget", () => {
    const small = fakeDist(page(ENTRY), { "assets/index-1.js": `console.log(1)` });
    const ok = spawnSync(process.execPath, [SCRIPT, "--dist", small], { encoding: "utf8" });
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/^First-paint JS\+CSS: 0\.0 KB gzip \(budget 150 KB\)$/m);

    const big = fakeDist(page(ENTRY), { "assets/index-1.js": noise(151 * 1024) });
    const over = spawnSync(process.execPath, [SCRIPT, "--dist", big], { encoding: "utf8" });
    expect(over.status).toBe(1);
    expect(over.stdout).toMatch(/FAIL: first-paint JS\+CSS is 15\d\.\d KB gzip, over the 150\.0 KB budget/);
  });
});
