import { defineConfig } from "@playwright/test";
import { CHROMIUM } from "./app-info.ts";

export default defineConfig({
  testDir: "./specs",
  globalSetup: "./global-setup.ts",
  fullyParallel: false,
  // Each worker starts its own backend (see fixtures.ts), so `--workers=N` runs N side by side.
  // One by default: on two cores a second worker saved an eighth of the time and doubled the slowest specs'.
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: true,
  reporter: [["list"], ["json", { outputFile: "../../.reports/e2e.json" }]],
  outputDir: "../../test-results/e2e",
  use: {
    viewport: { width: 1280, height: 800 },
    // Recording a trace for every test (kept only on failure) made the suite about a quarter
    // slower on two cores; a failure keeps a screenshot, and `--trace retain-on-failure` records traces.
    trace: "off",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
});
