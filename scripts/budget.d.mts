/** Types for scripts/budget.mjs, so TypeScript (tests, e2e pages) can import it. */

export declare const DEFAULT_BUDGET_BYTES: number;
/** File names (and so URLs) that only Monaco's modules, workers and icon font produce. */
export declare const MONACO_NAME: RegExp;
/** Strings that survive minification and occur in Monaco's own code or CSS, not in ours. */
export declare const MONACO_MARKERS: readonly string[];

export interface HtmlResources {
  readonly found: { url: string; via: string }[];
  readonly inline: { kind: "js" | "css"; text: string }[];
}

export interface BudgetFile {
  name: string;
  via: string;
  bytes: number;
  gzipBytes: number;
  monaco: boolean;
}

export interface LazyMonacoFile {
  name: string;
  bytes: number;
  gzipBytes: number;
}

export interface BudgetResult {
  files: BudgetFile[];
  lazyMonaco: LazyMonacoFile[];
  totalGzip: number;
  budgetBytes: number;
  problems: string[];
  ok: boolean;
}

/** The resources index.html makes the browser fetch before first paint, and inline code. */
export declare function htmlResources(html: string): HtmlResources;
/** Specifiers of a module's static imports and re-exports, never dynamic `import("…")`. */
export declare function staticImports(code: string): string[];
/** Measures a built dist folder. */
export declare function measureBudget(options: { distDir: string; budgetBytes?: number }): BudgetResult;
export declare function kb(bytes: number): string;
/** The printed report: a table of first-paint files, the total line, then lazy Monaco chunks. */
export declare function formatReport(result: BudgetResult): string;
