import { builtinModules } from "node:module";
import type { Plugin } from "vite";

const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

/**
 * Dependencies known to guard a built-in import and fall back to a browser API; Vite's empty
 * stub is right for exactly these. tweetnacl (under nats-core's nkeys) probes for Node's crypto.
 */
const GUARDED: readonly { readonly pkg: string; readonly builtin: string }[] = [{ pkg: "tweetnacl", builtin: "crypto" }];

function isGuarded(source: string, importer: string | undefined): boolean {
  return GUARDED.some((g) => g.builtin === source.replace(/^node:/, "") && (importer ?? "").includes(`/node_modules/${g.pkg}/`));
}

/**
 * Vite only warns when a Node built-in reaches a browser bundle and ships a stub; this fails the
 * build instead, naming the importer, unless the pair is a known guarded probe.
 */
export function nodeBuiltinGate(): Plugin {
  return {
    name: "patchbay:node-builtin-gate",
    enforce: "pre",
    apply: "build",
    resolveId(source, importer) {
      if (builtins.has(source) && !isGuarded(source, importer)) {
        this.error(`Node built-in "${source}" imported by ${importer ?? "?"} cannot ship to the browser`);
      }
      return null;
    },
  };
}
