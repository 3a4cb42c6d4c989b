import type { BackendClient } from "../../core/backend/backend-client.ts";
import { randomIds, sinkLogger, systemClock, type Environment } from "../../core/env/index.ts";
import { wsConnector } from "../../core/nats/browser/ws-connector.ts";
import type { DocumentStore } from "../../core/persist/document-store.ts";

/** The browser's Environment: its own fetch, WebSocket NATS, performance clock, backend storage. */
export function createBrowserEnv(storage: DocumentStore): Environment {
  return {
    fetch: globalThis.fetch.bind(globalThis),
    nats: wsConnector(),
    clock: systemClock(performance, Date),
    ids: randomIds((b) => crypto.getRandomValues(b)),
    logger: sinkLogger((level, message, fields) => {
      if (level === "debug") return;
      console[level](`[patchbay] ${message}`, fields ?? "");
    }),
    storage,
  };
}

/**
 * The per-launch token the backend wrote into index.html. Under the Vite dev server the
 * placeholder stays, so the token is taken from `?token=` once and kept for the tab.
 */
export function readLaunchToken(doc: Document, url: URL, session: Pick<Storage, "getItem" | "setItem">): string {
  const meta = doc.querySelector<HTMLMetaElement>('meta[name="patchbay-token"]')?.content ?? "";
  if (meta !== "" && !meta.startsWith("%")) return meta;
  const fromUrl = url.searchParams.get("token");
  if (fromUrl) session.setItem("patchbay.dev-token", fromUrl);
  return fromUrl ?? session.getItem("patchbay.dev-token") ?? "";
}

export type { BackendClient };
