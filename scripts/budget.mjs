#!/usr/bin/env node
// The first-paint bundle budget: sums the gzip size of every JavaScript and CSS file the browser
// fetches before first paint (what index.html references, plus the static import graph of its
// module scripts) and fails above the budget or when Monaco is among them. Run after `vite build`.
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

export const DEFAULT_BUDGET_BYTES = 150 * 1024;

/** File names (and so URLs) that only Monaco's modules, workers and icon font produce. */
export const MONACO_NAME = /monaco|editor\.(?:api|main|worker)|json\.worker|jsonMode|codicon/i;
/** Strings that survive minification and occur in Monaco's own code or CSS, not in ours. */
export const MONACO_MARKERS = ["MonacoEnvironment", ".monaco-editor", "monaco-editor-background"];

const ATTR = /([a-zA-Z-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/g;

function attributes(tag) {
  const out = {};
  for (const m of tag.matchAll(ATTR)) out[m[1].toLowerCase()] = m[2] ?? m[3] ?? m[4] ?? "";
  return out;
}

/** The resources index.html makes the browser fetch before first paint, and inline code. */
export function htmlResources(html) {
  const found = [];
  const inline = [];
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const a = attributes(m[1]);
    if (a.src !== undefined) found.push({ url: a.src, via: a.type === "module" ? "entry script" : "script" });
    else if (m[2].trim()) inline.push({ kind: "js", text: m[2] });
  }
  for (const m of html.matchAll(/<link\b([^>]*)>/gi)) {
    const a = attributes(m[1]);
    const rel = (a.rel ?? "").toLowerCase().split(/\s+/);
    if (!a.href) continue;
    if (rel.includes("modulepreload")) found.push({ url: a.href, via: "modulepreload" });
    else if (rel.includes("stylesheet")) found.push({ url: a.href, via: "stylesheet" });
    else if (rel.includes("preload") && (a.as === "script" || a.as === "style")) found.push({ url: a.href, via: `preload (${a.as})` });
  }
  for (const m of html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)) {
    if (m[1].trim()) inline.push({ kind: "css", text: m[1] });
  }
  return { found, inline };
}

/**
 * Specifiers of a module's static imports and re-exports (`import x from "…"`, `import "…"`,
 * `export … from "…"`), never dynamic `import("…")`, which loads later.
 */
export function staticImports(code) {
  const specifiers = [];
  const re = /(?:^|[;\n}\s])(?:import|export)\s*(?:(?:[\w$]+\s*,?\s*)?(?:\*\s*as\s+[\w$]+|\*|\{[^}]*\})?\s*from\s*)?(["'`])([^"'`\n]+)\1/g;
  for (const m of code.matchAll(re)) specifiers.push(m[2]);
  return specifiers;
}

function resolveUrl(distDir, url, fromFile) {
  const clean = url.split(/[?#]/)[0];
  if (/^[a-z][a-z0-9+.-]*:/i.test(clean) || clean.startsWith("//")) return { external: url };
  const path = clean.startsWith("/") ? join(distDir, clean) : resolve(fromFile ? dirname(fromFile) : distDir, clean);
  const rel = relative(distDir, path);
  if (rel.startsWith("..") || rel.startsWith(sep)) return { outside: url };
  return { path };
}

function isMonaco(name, content) {
  return MONACO_NAME.test(name) || MONACO_MARKERS.some((marker) => content.includes(marker));
}

function gzipSize(buffer) {
  return gzipSync(buffer, { level: 9 }).length;
}

/** Measures a built dist folder; pure apart from reading files, so tests can run it on fakes. */
export function measureBudget({ distDir, budgetBytes = DEFAULT_BUDGET_BYTES }) {
  const problems = [];
  const indexPath = join(distDir, "index.html");
  if (!existsSync(indexPath)) {
    return { files: [], lazyMonaco: [], totalGzip: 0, budgetBytes, problems: [`${indexPath} not found: run \`vite build\` first`], ok: false };
  }
  const { found, inline } = htmlResources(readFileSync(indexPath, "utf8"));
  const files = [];
  const seen = new Set();
  const queue = found.map((r) => ({ ...r, from: undefined }));
  while (queue.length > 0) {
    const item = queue.shift();
    const target = resolveUrl(distDir, item.url, item.from);
    if (target.external) {
      problems.push(`first paint loads an external resource that cannot be measured: ${target.external}`);
      continue;
    }
    if (target.outside) {
      problems.push(`first paint references a file outside the dist folder: ${target.outside}`);
      continue;
    }
    if (seen.has(target.path)) continue;
    seen.add(target.path);
    if (!existsSync(target.path)) {
      problems.push(`first paint references a missing file: ${item.url} (${item.via})`);
      continue;
    }
    const buffer = readFileSync(target.path);
    const name = relative(distDir, target.path).split(sep).join("/");
    const content = buffer.toString("utf8");
    const monaco = isMonaco(name, content);
    files.push({ name, via: item.via, bytes: buffer.length, gzipBytes: gzipSize(buffer), monaco });
    if (/\.m?js$/.test(name)) {
      for (const spec of staticImports(content)) {
        if (spec.startsWith(".") || spec.startsWith("/")) queue.push({ url: spec, via: `imported by ${name}`, from: target.path });
      }
    }
  }
  for (const [i, piece] of inline.entries()) {
    const buffer = Buffer.from(piece.text);
    files.push({ name: `index.html inline ${piece.kind} #${i + 1}`, via: "inline", bytes: buffer.length, gzipBytes: gzipSize(buffer), monaco: isMonaco("", piece.text) });
  }
  for (const f of files.filter((f) => f.monaco)) problems.push(`Monaco is in the first-paint bundle: ${f.name} (${f.via})`);

  const totalGzip = files.reduce((sum, f) => sum + f.gzipBytes, 0);
  if (totalGzip > budgetBytes) problems.push(`first-paint JS+CSS is ${kb(totalGzip)} gzip, over the ${kb(budgetBytes)} budget`);
  const lazyMonaco = lazyMonacoFiles(distDir, seen);
  return { files, lazyMonaco, totalGzip, budgetBytes, problems, ok: problems.length === 0 };
}

/** Monaco's chunks and workers elsewhere in the build, downloaded only when an editor opens. */
function lazyMonacoFiles(distDir, firstPaint) {
  const out = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(?:m?js|css)$/.test(entry) && !firstPaint.has(path)) {
        const buffer = readFileSync(path);
        const name = relative(distDir, path).split(sep).join("/");
        if (isMonaco(name, buffer.toString("utf8"))) out.push({ name, bytes: buffer.length, gzipBytes: gzipSize(buffer) });
      }
    }
  };
  walk(distDir);
  return out.sort((a, b) => b.gzipBytes - a.gzipBytes);
}

export function kb(bytes) {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

/** The printed report: a table of first-paint files, the total line, then lazy Monaco chunks. */
export function formatReport(result) {
  const lines = [];
  const width = Math.max(20, ...result.files.map((f) => f.name.length));
  lines.push(`${"first-paint file".padEnd(width)}  ${"raw".padStart(10)}  ${"gzip".padStart(10)}  loaded as`);
  for (const f of result.files) {
    lines.push(`${f.name.padEnd(width)}  ${kb(f.bytes).padStart(10)}  ${kb(f.gzipBytes).padStart(10)}  ${f.via}${f.monaco ? "  [MONACO]" : ""}`);
  }
  lines.push("");
  lines.push(`First-paint JS+CSS: ${kb(result.totalGzip)} gzip (budget ${Math.round(result.budgetBytes / 1024)} KB)`);
  if (result.lazyMonaco.length > 0) {
    const total = result.lazyMonaco.reduce((sum, f) => sum + f.gzipBytes, 0);
    lines.push("");
    lines.push(`Monaco, loaded only when an editor opens: ${kb(total)} gzip in ${result.lazyMonaco.length} files`);
    for (const f of result.lazyMonaco) lines.push(`  ${f.name.padEnd(width)}  ${kb(f.bytes).padStart(10)}  ${kb(f.gzipBytes).padStart(10)}`);
  }
  for (const p of result.problems) lines.push(`FAIL: ${p}`);
  return lines.join("\n");
}

function main(argv) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
  let distDir = join(root, "dist/client");
  let budgetBytes = DEFAULT_BUDGET_BYTES;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--dist") distDir = resolve(argv[++i] ?? "");
    else if (argv[i] === "--budget-kb") budgetBytes = Number(argv[++i]) * 1024;
    else {
      console.error(`usage: node scripts/budget.mjs [--dist dist/client] [--budget-kb 150]`);
      return 2;
    }
  }
  if (!Number.isFinite(budgetBytes) || budgetBytes <= 0) {
    console.error("--budget-kb needs a positive number");
    return 2;
  }
  const result = measureBudget({ distDir, budgetBytes });
  console.log(formatReport(result));
  return result.ok ? 0 : 1;
}

const invoked = process.argv[1] ? realpathSync(process.argv[1]) : "";
if (invoked === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
