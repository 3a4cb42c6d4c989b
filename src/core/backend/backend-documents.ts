import type { DocumentKind, DocumentStore, DocumentSummary } from "../persist/document-store.ts";
import type { BackendClient } from "./backend-client.ts";

/** The workspace as seen from the browser: a DocumentStore over the backend's /api/workspace. */
export function backendDocuments(client: BackendClient): DocumentStore {
  const path = (kind: DocumentKind, name?: string) =>
    `/workspace/${encodeURIComponent(kind)}${name === undefined ? "" : `/${encodeURIComponent(name)}`}`;
  return {
    async list(kind) {
      const res = await client.call<{ documents: DocumentSummary[] }>("GET", path(kind));
      return res.documents;
    },
    async read(kind, name) {
      const res = await client.call<{ data: unknown }>("GET", path(kind, name));
      return res.data;
    },
    async write(kind, name, data) {
      await client.call("PUT", path(kind, name), { data });
    },
    async remove(kind, name) {
      await client.call("DELETE", path(kind, name));
    },
  };
}
