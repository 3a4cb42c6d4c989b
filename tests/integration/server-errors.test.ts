import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sinkLogger } from "../../src/core/env/defaults.ts";
import { startHttpServer, type HttpApp } from "../../server/http/app.ts";
import { HttpError } from "../../server/http/errors.ts";
import { errorOf, send } from "../helpers/http-client.ts";

const TOKEN = "fixed-test-token-for-error-paths";
let app: HttpApp;
let root: string;
const logs: string[] = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "patchbay-errors-"));
  app = await startHttpServer({
    token: TOKEN,
    logger: sinkLogger((level, message, fields) => logs.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`)),
    distDir: join(root, "not-built"),
    maxBodyBytes: 1024,
    host: "127.0.0.1",
    port: 0,
    exposed: false,
    allowOrigins: [],
    routes: [
      {
        method: "GET",
        path: "/api/boom",
        safe: true,
        handler: async () => {
          throw new Error("disk on fire at /secret/path");
        },
      },
      {
        method: "POST",
        path: "/api/teapot",
        safe: false,
        handler: async () => {
          throw new HttpError(418, "teapot", "short and stout");
        },
      },
    ],
  });
});
afterAll(async () => {
  await app.close();
  await rm(root, { recursive: true, force: true });
});

const auth = { authorization: `Bearer ${TOKEN}` };

describe("error responses", () => {
  it("an unexpected failure is an opaque 500 JSON, with the detail only in the log", async () => {
    const res = await send({ port: app.port, path: "/api/boom", headers: auth });
    expect(res.status).toBe(500);
    expect(errorOf(res)).toEqual({ code: "internal", message: "internal server error; see the backend's log" });
    expect(res.text).not.toContain("disk on fire");
    expect(logs.some((l) => l.startsWith("error request failed") && l.includes("disk on fire"))).toBe(true);
    expect(logs.some((l) => l.startsWith("warn GET /api/boom 500"))).toBe(true);
  });

  it("a handler's HttpError keeps its status and code", async () => {
    const res = await send({ port: app.port, method: "POST", path: "/api/teapot", headers: auth });
    expect(res.status).toBe(418);
    expect(errorOf(res)).toEqual({ code: "teapot", message: "short and stout" });
  });

  it("an unbuilt SPA gets a 500 page saying how to build it", async () => {
    const res = await send({ port: app.port, path: "/", headers: { cookie: `patchbay_token_${app.port}=${TOKEN}` } });
    expect(res.status).toBe(500);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    expect(res.text).toContain("npm run build");
    expect(res.text).not.toContain(TOKEN);
  });

  it("close() drops idle keep-alive connections so shutdown is immediate", async () => {
    const other = await startHttpServer({
      token: TOKEN,
      logger: sinkLogger(() => {}),
      distDir: root,
      maxBodyBytes: 1024,
      host: "127.0.0.1",
      port: 0,
      exposed: false,
      allowOrigins: [],
      routes: [],
    });
    const keepAlive = await fetch(`http://127.0.0.1:${other.port}/api/x`, { headers: auth });
    expect(keepAlive.status).toBe(404);
    const began = Date.now();
    await other.close();
    expect(Date.now() - began).toBeLessThan(1000);
  });
});
