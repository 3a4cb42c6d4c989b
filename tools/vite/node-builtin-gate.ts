import { builtinModules } from "node:module";
import type { Plugin } from "vite";

const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

/**
 * Vite only warns when a Node built-in reaches a browser bundle and ships a stub; this fails the
 * build instead, naming the importer.
 */
export function nodeBuiltinGate(): Plugin {
  return {
    name: "patchbay:node-builtin-gate",
    enforce: "pre",
    apply: "build",
    resolveId(source, importer) {
      if (builtins.has(source)) {
        this.error(`Node built-in "${source}" imported by ${importer ?? "?"} cannot ship to the browser`);
      }
      return null;
    },
  };
}
