import { test as base } from "@playwright/test";
import { readAppInfo, type AppInfo } from "./app-info.ts";

export interface BackendStatus {
  readonly workspace: string;
  readonly nats: { readonly mode: string; readonly url?: string; readonly wsUrl?: string };
}

/** `app` is the running backend; `status` is its /api/status, read with the launch token. */
export const test = base.extend<{ app: AppInfo; status: BackendStatus }>({
  // eslint-disable-next-line no-empty-pattern
  app: async ({}, use) => {
    await use(readAppInfo());
  },
  status: async ({ app }, use) => {
    const res = await fetch(`${app.origin}/api/status`, { headers: { authorization: `Bearer ${app.token}` } });
    if (!res.ok) throw new Error(`/api/status answered ${res.status}`);
    await use((await res.json()) as BackendStatus);
  },
});

export { expect } from "@playwright/test";
