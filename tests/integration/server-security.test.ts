import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CSP } from "../../server/http/headers.ts";
import { errorOf, send, startTestBackend, type TestBackend } from "../helpers/http-client.ts";

let t: TestBackend;
beforeAll(async () => {
  t = await startTestBackend({ allowOrigins: ["http://localhost:5173"] });
});
afterAll(() => t.close());

const api = (path: string, headers: Record<string, string> = {}) =>
  send({ port: t.port, path, headers: { ...t.auth, ...headers } });

describe("Host allow-list (DNS rebinding)", () => {
  it.each(["127.0.0.1", "localhost", "[::1]"])("accepts %s:<port>", async (name) => {
    const res = await send({ port: t.port, path: "/api/status", host: `${name}:${t.port}`, headers: t.auth });
    expect(res.status).toBe(200);
  });

  it.each([
    ["a rebound name", (p: number) => `evil.example:${p}`],
    ["the right name on another port", (p: number) => `127.0.0.1:${p + 1}`],
    ["a bare name without port", () => "localhost"],
    ["a LAN address", (p: number) => `192.168.1.20:${p}`],
  ])("refuses %s with 403 JSON, even with a valid token", async (_label, host) => {
    const res = await send({ port: t.port, path: "/api/status", host: host(t.port), headers: t.auth });
    expect(res.status).toBe(403);
    expect(errorOf(res).code).toBe("forbidden_host");
  });

  it("refuses a request without any Host header", async () => {
    const res = await send({ port: t.port, path: "/api/status", host: null, headers: t.auth });
    expect(res.status).toBe(403);
    expect(errorOf(res).message).toMatch(/missing Host/);
  });

  it("checks Host on the index page and assets too", async () => {
    for (const path of ["/", "/assets/app-abc123.js", "/favicon.svg", `/?token=${t.token}`]) {
      const res = await send({ port: t.port, path, host: `attacker.test:${t.port}` });
      expect(res.status, path).toBe(403);
      expect(res.text).not.toContain(t.token);
    }
  });
});

describe("Origin allow-list (cross-site requests)", () => {
  it("accepts its own origins and an --allow-origin", async () => {
    for (const origin of [`http://127.0.0.1:${t.port}`, `http://localhost:${t.port}`, "http://localhost:5173"]) {
      expect((await api("/api/status", { origin })).status, origin).toBe(200);
    }
  });

  it.each(["https://evil.example", "null", `http://127.0.0.1:${1}`, `https://127.0.0.1:PORT`])(
    "refuses Origin %s with 403",
    async (origin) => {
      const res = await api("/api/status", { origin: origin.replace("PORT", String(t.port)) });
      expect(res.status).toBe(403);
      expect(errorOf(res).code).toBe("forbidden_origin");
    },
  );

  it("refuses a foreign Origin on a state-changing request before touching the workspace", async () => {
    const res = await send({
      port: t.port,
      method: "PUT",
      path: "/api/workspace/connections/x",
      headers: { ...t.auth, origin: "https://evil.example", "content-type": "application/json" },
      body: JSON.stringify({ data: 1 }),
    });
    expect(res.status).toBe(403);
    const list = await api("/api/workspace/connections");
    expect(list.json()).toEqual({ documents: [] });
  });
});

describe("token on /api", () => {
  it("401s without a token, with a JSON error and a Bearer challenge", async () => {
    const res = await send({ port: t.port, path: "/api/status" });
    expect(res.status).toBe(401);
    expect(errorOf(res).code).toBe("unauthorized");
    expect(res.headers["www-authenticate"]).toMatch(/^Bearer/);
  });

  it.each([
    ["a wrong token", "Bearer wrong"],
    ["the token with one character changed", "MUTATE"],
    ["a prefix of the token", "PREFIX"],
    ["the token with another scheme", "BASIC"],
  ])("401s with %s", async (_label, kind) => {
    const value =
      kind === "MUTATE"
        ? `Bearer ${t.token.slice(0, -1)}${t.token.endsWith("A") ? "B" : "A"}`
        : kind === "PREFIX"
          ? `Bearer ${t.token.slice(0, 20)}`
          : kind === "BASIC"
            ? `Basic ${t.token}`
            : kind;
    const res = await send({ port: t.port, path: "/api/status", headers: { authorization: value } });
    expect(res.status).toBe(401);
  });

  it("does not accept the index cookie in place of the header", async () => {
    const cookie = `patchbay_token_${t.port}=${t.token}`;
    const res = await send({ port: t.port, path: "/api/status", headers: { cookie } });
    expect(res.status).toBe(401);
  });

  it("does not accept the token in the query string", async () => {
    const res = await send({ port: t.port, path: `/api/status?token=${t.token}` });
    expect(res.status).toBe(401);
  });

  it("requires the token even for unknown /api routes", async () => {
    expect((await send({ port: t.port, path: "/api/nope" })).status).toBe(401);
  });
});

describe("API routing errors", () => {
  it("404 JSON for an unknown /api route", async () => {
    const res = await api("/api/nope");
    expect(res.status).toBe(404);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(errorOf(res)).toEqual({ code: "not_found", message: "no API route GET /api/nope" });
  });

  it("405 JSON with Allow for a known route and the wrong method", async () => {
    const res = await send({ port: t.port, method: "POST", path: "/api/status", headers: t.auth });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("GET");
    expect(errorOf(res).code).toBe("method_not_allowed");
    const doc = await send({ port: t.port, method: "POST", path: "/api/workspace/connections/a", headers: t.auth });
    expect(doc.status).toBe(405);
    expect(doc.headers.allow).toBe("GET, PUT, DELETE");
  });

  it("400 JSON for malformed percent-encoding in a parameter", async () => {
    const res = await api("/api/workspace/connections/%E0%A4%A");
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("bad_request");
  });

  it("400 JSON for a request target that is not a path", async () => {
    const res = await send({ port: t.port, path: "//evil.example/api/status", headers: t.auth });
    expect(res.status).toBe(400);
  });

  it("GET /api/status reports version, workspace and NATS state", async () => {
    const res = await api("/api/status");
    expect(res.headers["cache-control"]).toBe("no-store");
    const body = res.json<{ version: string; workspace: string; nats: { mode: string } }>();
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(body.workspace).toBe(t.workspace);
    expect(body.nats.mode).toBe("unavailable");
    t.backend.setNats({ mode: "managed", url: "nats://127.0.0.1:1", wsUrl: "ws://127.0.0.1:2" });
    expect((await api("/api/status")).json<{ nats: unknown }>().nats).toEqual({
      mode: "managed",
      url: "nats://127.0.0.1:1",
      wsUrl: "ws://127.0.0.1:2",
    });
  });
});

describe("security headers", () => {
  it("are on every response, success or error", async () => {
    const responses = await Promise.all([
      api("/api/status"),
      send({ port: t.port, path: "/api/status" }),
      send({ port: t.port, path: "/" }),
      send({ port: t.port, path: "/assets/app-abc123.js" }),
      send({ port: t.port, path: "/missing" }),
      send({ port: t.port, path: "/", host: "evil.example" }),
    ]);
    for (const res of responses) {
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["referrer-policy"]).toBe("no-referrer");
      expect(res.headers["x-frame-options"]).toBe("DENY");
    }
  });

  it("HTML carries the CSP; JSON does not need it", async () => {
    const html = await send({ port: t.port, path: "/" });
    expect(html.headers["content-type"]).toMatch(/^text\/html/);
    expect(html.headers["content-security-policy"]).toBe(CSP);
    expect(CSP).toContain("frame-ancestors 'none'");
    expect(CSP).toContain("script-src 'self'");
    expect(CSP).toContain("connect-src 'self' ws: wss: http: https:");
  });
});

describe("token hand-off and index page", () => {
  it("trades ?token= for a per-port HttpOnly cookie and a 303 to /", async () => {
    const res = await send({ port: t.port, path: `/?token=${t.token}` });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe("/");
    expect(res.headers["cache-control"]).toBe("no-store");
    const cookie = res.headers["set-cookie"]?.[0] ?? "";
    expect(cookie).toBe(`patchbay_token_${t.port}=${t.token}; HttpOnly; SameSite=Strict; Path=/`);
  });

  it("refuses a wrong ?token= with the 401 page and no cookie", async () => {
    const res = await send({ port: t.port, path: "/?token=nope" });
    expect(res.status).toBe(401);
    expect(res.headers["set-cookie"]).toBeUndefined();
    expect(res.text).toContain("URL printed in the terminal");
  });

  it("serves index.html with the token only to the cookie holder", async () => {
    const cookie = `patchbay_token_${t.port}=${t.token}`;
    for (const path of ["/", "/index.html"]) {
      const res = await send({ port: t.port, path, headers: { cookie } });
      expect(res.status, path).toBe(200);
      expect(res.headers["cache-control"]).toBe("no-store");
      expect(res.text).toContain(`<meta name="patchbay-token" content="${t.token}">`);
      expect(res.text).not.toContain("%PATCHBAY_TOKEN%");
    }
  });

  it("shows a 401 HTML page without the cookie, or with another port's cookie", async () => {
    for (const cookie of [undefined, `patchbay_token_${t.port + 1}=${t.token}`, `patchbay_token_${t.port}=wrong`]) {
      const res = await send({ port: t.port, path: "/", headers: cookie ? { cookie } : {} });
      expect(res.status).toBe(401);
      expect(res.headers["content-type"]).toMatch(/^text\/html/);
      expect(res.text).toContain("Open the URL printed in the terminal");
      expect(res.text).not.toContain(t.token);
    }
  });

  it("never hands out the raw template or the token through an encoded index path", async () => {
    const res = await send({ port: t.port, path: "/%69ndex.html" });
    expect(res.status).toBe(401);
  });
});

describe("static assets", () => {
  it("serves hashed assets with their content type and an immutable cache", async () => {
    const res = await send({ port: t.port, path: "/assets/app-abc123.js" });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(res.text).toBe("export const answer = 42;\n");
  });

  it("gives only the validation worker a policy that lets ajv generate code, and no network", async () => {
    const worker = await send({ port: t.port, path: "/assets/validation-worker-Xy_9.js" });
    expect(worker.status).toBe(200);
    expect(worker.headers["content-security-policy"]).toBe("default-src 'none'; script-src 'self' 'unsafe-eval'; connect-src 'none'");
    const other = await send({ port: t.port, path: "/assets/app-abc123.js" });
    expect(other.headers["content-security-policy"]).toBeUndefined();
    const page = await send({ port: t.port, path: "/", headers: { cookie: `patchbay_token_${t.port}=${t.token}` } });
    expect(String(page.headers["content-security-policy"])).toContain("script-src 'self';");
    expect(String(page.headers["content-security-policy"])).not.toContain("unsafe-eval");
  });

  it("serves other files revalidated, with their type", async () => {
    const res = await send({ port: t.port, path: "/favicon.svg" });
    expect(res.headers["content-type"]).toBe("image/svg+xml");
    expect(res.headers["cache-control"]).toBe("no-cache");
  });

  it("answers HEAD without a body", async () => {
    const res = await send({ port: t.port, method: "HEAD", path: "/assets/app-abc123.js" });
    expect(res.status).toBe(200);
    expect(res.headers["content-length"]).toBe("26");
    expect(res.body.length).toBe(0);
  });

  it.each([
    "/../secret.txt",
    "/%2e%2e/secret.txt",
    "/assets/%2e%2e/%2e%2e/secret.txt",
    "/assets/..%2f..%2fsecret.txt",
    "/..%5csecret.txt",
    "/assets/%00.js",
    "/assets",
  ])("never serves outside the dist folder or a directory: %s", async (path) => {
    const res = await send({ port: t.port, path });
    expect(res.status).toBe(404);
    expect(res.text).not.toContain("outside the dist folder");
    expect(errorOf(res).code).toBe("not_found");
  });

  it("404s an unknown non-asset path with JSON", async () => {
    const res = await send({ port: t.port, path: "/settings/profile" });
    expect(res.status).toBe(404);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
  });

  it("405s a non-GET on the site with Allow", async () => {
    const res = await send({ port: t.port, method: "POST", path: "/" });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("GET, HEAD");
  });
});
