import { test as base } from "@playwright/test";
import { BackendClient, type BackendStatus } from "../../src/core/backend/backend-client.ts";
import { readAppInfo, type AppInfo } from "./app-info.ts";

/** `app` is the running backend; `status` is its /api/status, read with the launch token. */
export const test = base.extend<{ app: AppInfo; status: BackendStatus }>({
  // eslint-disable-next-line no-empty-pattern
  app: async ({}, use) => {
    await use(readAppInfo());
  },
  status: async ({ app }, use) => {
    await use(await new BackendClient({ fetch, token: app.token, baseUrl: app.origin }).status());
  },
});

export { expect } from "@playwright/test";
