import { availableParallelism } from "node:os";
import { svelte } from "@sveltejs/vite-plugin-svelte";
import { defineConfig } from "vitest/config";

/**
 * Vitest's default, one worker fewer than the cores, is a single worker on a two-core machine.
 * Unit tests keep every core busy, in threads (they start faster than processes); integration
 * tests mostly wait on their peers, so one more file than cores runs at once.
 */
const CORES = availableParallelism();

/** The folder decides the tier: colocated *.test.ts are unit tests, tests/integration needs real peers. */
export default defineConfig({
  plugins: [svelte()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          environment: "node",
          pool: "threads",
          maxWorkers: CORES,
          include: ["src/**/*.test.ts", "server/**/*.test.ts", "tests/unit/**/*.test.ts", "tests/agreement/**/*.test.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          environment: "node",
          maxWorkers: CORES + 1,
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/integration/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
    ],
  },
});
