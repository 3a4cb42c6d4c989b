export type MonacoTheme = "vs" | "vs-dark";

/** Monaco's built-in theme matching the app's `data-theme` on the root element. */
export function monacoThemeOf(root: HTMLElement): MonacoTheme {
  return root.dataset["theme"] === "dark" ? "vs-dark" : "vs";
}

/** Calls `apply` now and whenever `data-theme` changes on `root`; returns the disposer. */
export function watchTheme(root: HTMLElement, apply: (theme: MonacoTheme) => void): () => void {
  apply(monacoThemeOf(root));
  const observer = new MutationObserver(() => apply(monacoThemeOf(root)));
  observer.observe(root, { attributes: true, attributeFilter: ["data-theme"] });
  return () => observer.disconnect();
}
