import { test as base } from "@playwright/test";
import { BackendClient, type BackendStatus } from "../../src/core/backend/backend-client.ts";
import type { AppInfo } from "./app-info.ts";
import { startBackend } from "./backend.ts";

/**
 * Closes the MCP relay sessions a test left open. The backend closes a session only 30 s after its
 * page went away, allows 16 at once, and all of a worker's specs share it: faster specs would fill it first.
 */
async function closeRelaySessions(app: AppInfo): Promise<void> {
  const headers = { authorization: `Bearer ${app.token}` };
  const res = await fetch(`${app.origin}/api/mcp/sessions`, { headers });
  if (!res.ok) throw new Error(`listing relay sessions: HTTP ${res.status}`);
  const { sessions } = (await res.json()) as { sessions: { id: string; open: boolean }[] };
  for (const s of sessions.filter((x) => x.open)) {
    const closed = await fetch(`${app.origin}/api/mcp/sessions/${s.id}/close`, { method: "POST", headers });
    // A session can end on its own between the list and the close.
    if (!closed.ok && closed.status !== 404 && closed.status !== 409) throw new Error(`closing relay session ${s.id}: HTTP ${closed.status}`);
  }
}

/**
 * `app` is the worker's running backend (each worker starts its own, so workers share no state);
 * `status` is its /api/status, read with the launch token.
 */
export const test = base.extend<{ status: BackendStatus; relayCleanup: void }, { app: AppInfo }>({
  app: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const backend = await startBackend();
      try {
        await use(backend.info);
      } finally {
        await backend.stop();
      }
    },
    { scope: "worker", timeout: 60_000 },
  ],
  status: async ({ app }, use) => {
    await use(await new BackendClient({ fetch, token: app.token, baseUrl: app.origin }).status());
  },
  relayCleanup: [
    async ({ app }, use) => {
      await use();
      await closeRelaySessions(app);
    },
    { auto: true },
  ],
});

export { expect } from "@playwright/test";
