import { builtinModules } from "node:module";
import type { Plugin } from "vite";

const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

/**
 * Vite only warns when a Node built-in reaches a browser bundle and ships a stub; this fails the
 * build instead when our own code imports one, naming the importer. Dependencies keep Vite's stub:
 * some (tweetnacl under nats-core) probe for Node's crypto and fall back to the browser's.
 */
export function nodeBuiltinGate(): Plugin {
  return {
    name: "patchbay:node-builtin-gate",
    enforce: "pre",
    apply: "build",
    resolveId(source, importer) {
      if (builtins.has(source) && !(importer ?? "").includes("/node_modules/")) {
        this.error(`Node built-in "${source}" imported by ${importer ?? "?"} cannot ship to the browser`);
      }
      return null;
    },
  };
}
