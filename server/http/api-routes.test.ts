import { describe, expect, it } from "vitest";
import type { DocumentKind, DocumentStore } from "../../src/core/persist/document-store.ts";
import { apiRoutes } from "./api-routes.ts";
import { createRouter, EFFECT_METHODS } from "./router.ts";

/** A store that records every call, so a test can see which routes change anything. */
function recordingStore(): DocumentStore & { calls: string[] } {
  const calls: string[] = [];
  const docs = new Map<string, unknown>([["connections/a", { x: 1 }]]);
  return {
    calls,
    async list(kind: DocumentKind) {
      calls.push("list");
      return [...docs.keys()].filter((k) => k.startsWith(`${kind}/`)).map((k) => ({ name: k.split("/")[1]! }));
    },
    async read(kind, name) {
      calls.push("read");
      return docs.get(`${kind}/${name}`);
    },
    async write(kind, name, data) {
      calls.push("write");
      docs.set(`${kind}/${name}`, data);
    },
    async remove(kind, name) {
      calls.push("remove");
      docs.delete(`${kind}/${name}`);
    },
  };
}

const status = () => ({ version: "0.0.0", workspace: "/w", nats: { mode: "unavailable" as const } });

describe("the API route table", () => {
  const routes = apiRoutes({ status, documents: recordingStore() });

  it("marks every GET route safe", () => {
    const gets = routes.filter((r) => r.method === "GET");
    expect(gets.length).toBeGreaterThan(0);
    for (const r of gets) expect(r.safe, r.path).toBe(true);
  });

  it("puts every side-effecting route on POST, PUT or DELETE", () => {
    const effects = routes.filter((r) => !r.safe);
    expect(effects.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      "DELETE /api/workspace/:kind/:name",
      "POST /api/oauth/fetch",
      "POST /api/relay/http",
      "PUT /api/workspace/:kind/:name",
    ]);
    for (const r of effects) expect(EFFECT_METHODS.has(r.method), r.path).toBe(true);
  });

  it("builds into a router (which itself refuses an unsafe GET)", () => {
    expect(createRouter(routes).routes).toHaveLength(routes.length);
  });

  it("running every GET handler changes nothing in the store", async () => {
    const store = recordingStore();
    const table = apiRoutes({ status, documents: store });
    for (const r of table.filter((x) => x.method === "GET")) {
      await r.handler({ params: { kind: "connections", name: "a" }, json: async () => ({ data: "must not be read" }) });
    }
    expect(store.calls.filter((c) => c === "write" || c === "remove")).toEqual([]);
    expect(store.calls).toContain("read");
  });

  it("PUT and DELETE handlers do reach the store", async () => {
    const store = recordingStore();
    const table = apiRoutes({ status, documents: store });
    const put = table.find((r) => r.method === "PUT")!;
    const del = table.find((r) => r.method === "DELETE")!;
    expect(await put.handler({ params: { kind: "connections", name: "b" }, json: async () => ({ data: 2 }) })).toEqual({
      status: 200,
      body: { kind: "connections", name: "b" },
    });
    expect(await del.handler({ params: { kind: "connections", name: "b" }, json: async () => undefined })).toEqual({ status: 204 });
    expect(store.calls).toEqual(["write", "remove"]);
  });
});
