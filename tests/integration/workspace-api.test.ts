import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BackendClient, BackendError } from "../../src/core/backend/backend-client.ts";
import { backendDocuments } from "../../src/core/backend/backend-documents.ts";
import { errorOf, send, startTestBackend, type TestBackend } from "../helpers/http-client.ts";

let t: TestBackend;
beforeAll(async () => {
  t = await startTestBackend();
});
afterAll(() => t.close());

const call = (method: string, path: string, body?: unknown) =>
  send({
    port: t.port,
    method,
    path,
    headers: { ...t.auth, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

describe("workspace API", () => {
  it("PUT, GET, list and DELETE a document", async () => {
    const put = await call("PUT", "/api/workspace/servers/echo", { data: { command: "echo", args: ["hi"] } });
    expect(put.status).toBe(200);
    expect(put.json()).toEqual({ kind: "servers", name: "echo" });

    const got = await call("GET", "/api/workspace/servers/echo");
    expect(got.status).toBe(200);
    expect(got.headers["cache-control"]).toBe("no-store");
    expect(got.json()).toEqual({ kind: "servers", name: "echo", data: { command: "echo", args: ["hi"] } });

    const list = await call("GET", "/api/workspace/servers");
    const docs = list.json<{ documents: { name: string; modifiedAt: number }[] }>().documents;
    expect(docs.map((d) => d.name)).toEqual(["echo"]);
    expect(docs[0]!.modifiedAt).toBeGreaterThan(0);

    const del = await call("DELETE", "/api/workspace/servers/echo");
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    expect((await call("GET", "/api/workspace/servers")).json()).toEqual({ documents: [] });
  });

  it("stores data of any JSON type, including null and false", async () => {
    for (const data of [null, false, 0, "text", [1, { a: 2 }]]) {
      expect((await call("PUT", "/api/workspace/settings/v", { data })).status).toBe(200);
      expect((await call("GET", "/api/workspace/settings/v")).json<{ data: unknown }>().data).toEqual(data);
    }
  });

  it("404 not_found for a missing document, on GET and DELETE", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await call(method, "/api/workspace/servers/ghost");
      expect(res.status).toBe(404);
      expect(errorOf(res).code).toBe("not_found");
    }
  });

  it("404 unknown_kind for a kind that does not exist", async () => {
    const res = await call("GET", "/api/workspace/passwords");
    expect(res.status).toBe(404);
    expect(errorOf(res).code).toBe("unknown_kind");
    expect(errorOf(res).message).toContain("connections");
  });

  it.each(["..", "%2e%2e", "a%2Fb", "a%5Cb", "a%00b", ".env", "x".repeat(129)])(
    "400 invalid_name for %s and nothing written",
    async (name) => {
      const res = await call("PUT", `/api/workspace/connections/${name}`, { data: 1 });
      expect(res.status).toBe(400);
      expect(errorOf(res).code).toBe("invalid_name");
    },
  );

  it("a corrupt file is a 422 naming where it was set aside; a later PUT starts fresh", async () => {
    const dir = join(t.workspace, "toolkits");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "broken.json"), "{ definitely not json");
    const res = await call("GET", "/api/workspace/toolkits/broken");
    expect(res.status).toBe(422);
    const err = errorOf(res);
    expect(err.code).toBe("corrupt");
    const aside = (await readdir(dir)).find((n) => n.startsWith("broken.json.set-aside-"));
    expect(aside).toBeDefined();
    expect(err.message).toContain(join(dir, aside!));
    expect(await readFile(join(dir, aside!), "utf8")).toBe("{ definitely not json");

    expect((await call("PUT", "/api/workspace/toolkits/broken", { data: { ok: true } })).status).toBe(200);
    expect((await call("GET", "/api/workspace/toolkits/broken")).json<{ data: unknown }>().data).toEqual({ ok: true });
  });

  it("a file from a newer Patchbay is a 409 unknown_version, set aside", async () => {
    const dir = join(t.workspace, "collections");
    await mkdir(dir, { recursive: true });
    const newer = JSON.stringify({ format: "patchbay.collections", version: 7, savedAt: "2030-01-01T00:00:00Z", data: {} });
    await writeFile(join(dir, "future.json"), newer);
    const res = await call("GET", "/api/workspace/collections/future");
    expect(res.status).toBe(409);
    expect(errorOf(res).code).toBe("unknown_version");
    expect(errorOf(res).message).toMatch(/version 7.*set-aside/);
  });

  it("works through the SPA's BackendClient and backendDocuments", async () => {
    const client = new BackendClient({ fetch, token: t.token, baseUrl: `http://127.0.0.1:${t.port}` });
    expect((await client.status()).workspace).toBe(t.workspace);
    const docs = backendDocuments(client);
    await docs.write("connections", "via-client", { url: "nats://x" });
    expect(await docs.read("connections", "via-client")).toEqual({ url: "nats://x" });
    expect((await docs.list("connections")).map((d) => d.name)).toContain("via-client");
    await docs.remove("connections", "via-client");
    const err = await docs.read("connections", "via-client").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackendError);
    expect((err as BackendError).status).toBe(404);
    expect((err as BackendError).code).toBe("not_found");
  });
});
