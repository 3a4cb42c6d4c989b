import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const root = fileURLToPath(new URL(".", import.meta.url));

/**
 * Builds the backend and CLI (plus the core modules it uses) into one ESM file for Node 20,
 * dist/server/cli.js. Packages from node_modules stay external; dist/client is left alone.
 */
export default defineConfig({
  root,
  publicDir: false,
  logLevel: "warn",
  ssr: { target: "node", external: true },
  build: {
    ssr: fileURLToPath(new URL("./server/cli.ts", import.meta.url)),
    outDir: fileURLToPath(new URL("./dist/server", import.meta.url)),
    emptyOutDir: true,
    target: "node20",
    sourcemap: true,
    minify: false,
    copyPublicDir: false,
    rollupOptions: {
      output: { format: "es", entryFileNames: "cli.js" },
    },
  },
});
