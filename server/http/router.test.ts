import { describe, expect, it } from "vitest";
import { HttpError } from "./errors.ts";
import { createRouter, type Route } from "./router.ts";

const handler = async () => ({ status: 200 });
const route = (method: Route["method"], path: string, safe = method === "GET"): Route => ({ method, path, safe, handler });

describe("router", () => {
  const router = createRouter([
    route("GET", "/api/status"),
    route("GET", "/api/workspace/:kind"),
    route("GET", "/api/workspace/:kind/:name"),
    route("PUT", "/api/workspace/:kind/:name"),
    route("DELETE", "/api/workspace/:kind/:name"),
  ]);

  it("matches literal and parameter segments, decoding parameters", () => {
    const m = router.match("GET", "/api/workspace/servers/my%20server");
    expect(m.kind).toBe("found");
    if (m.kind === "found") {
      expect(m.route.path).toBe("/api/workspace/:kind/:name");
      expect(m.params).toEqual({ kind: "servers", name: "my server" });
    }
  });

  it("reports the allowed methods when only the method is wrong", () => {
    expect(router.match("POST", "/api/workspace/a/b")).toEqual({ kind: "wrong_method", allow: ["GET", "PUT", "DELETE"] });
    expect(router.match("DELETE", "/api/status")).toEqual({ kind: "wrong_method", allow: ["GET"] });
  });

  it("finds nothing for unknown paths, extra or empty segments", () => {
    for (const path of ["/api/nope", "/api/status/", "/api/workspace/a/b/c", "/api/workspace//b", "/api/workspace/a/"]) {
      expect(router.match("GET", path), path).toEqual({ kind: "none" });
    }
  });

  it("turns malformed percent-encoding into a 400", () => {
    expect(() => router.match("GET", "/api/workspace/%E0%A4%A")).toThrow(HttpError);
  });

  it("refuses to be built with a GET route that has side effects", () => {
    expect(() => createRouter([route("GET", "/api/spawn", false)])).toThrow(/GET \/api\/spawn has side effects/);
  });
});
