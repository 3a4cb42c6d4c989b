import { fileURLToPath } from "node:url";
import { svelte } from "@sveltejs/vite-plugin-svelte";
import { defineConfig } from "vite";
import { nodeBuiltinGate } from "./tools/vite/node-builtin-gate.ts";

const backend = process.env.PATCHBAY_BACKEND ?? "http://127.0.0.1:7420";

export default defineConfig({
  root: fileURLToPath(new URL("./src", import.meta.url)),
  publicDir: fileURLToPath(new URL("./public", import.meta.url)),
  plugins: [nodeBuiltinGate(), svelte({ configFile: fileURLToPath(new URL("./svelte.config.js", import.meta.url)) })],
  build: {
    outDir: fileURLToPath(new URL("./dist/client", import.meta.url)),
    emptyOutDir: true,
    target: "es2022",
    sourcemap: false,
    chunkSizeWarningLimit: 8000,
  },
  worker: { format: "es" },
  server: {
    host: "127.0.0.1",
    // The hooks are where agents post push notifications: they must reach the backend in dev too.
    proxy: {
      "/api": { target: backend, changeOrigin: false },
      "/hooks": { target: backend, changeOrigin: false },
      // The OAuth redirect page; its script is served from public/ like any static file.
      "^/oauth/callback(\\?.*)?$": { target: backend, changeOrigin: false },
    },
  },
});
