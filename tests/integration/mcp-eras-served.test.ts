/**
 * Patchbay's own served toolkit (MCP over Streamable HTTP, started through the backend's API)
 * reached by the workbench's client through the relay: in auto mode the probe is refused and the
 * client falls back to initialize, naming why; pinned to legacy it never probes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send, startTestBackend, type TestBackend } from "../helpers/http-client.ts";
import { relayed } from "../helpers/mcp-connect.ts";

let backend: TestBackend;
let url: string;

beforeAll(async () => {
  backend = await startTestBackend();
  const res = await send({ port: backend.port, method: "POST", path: "/api/serve/mcp/start", headers: { ...backend.auth, "content-type": "application/json" }, body: JSON.stringify({ port: 0 }) });
  expect(res.status, res.text).toBe(200);
  url = res.json<{ url: string }>().url;
});

afterAll(async () => {
  await backend?.close();
});

describe("the served toolkit from the workbench's client", () => {
  it("auto: server/discover is answered as a legacy server answers it, so initialize follows and calls work", async () => {
    const session = await relayed(backend, { transport: "streamable-http", url }, { era: "auto" });
    try {
      expect(session.info.era).toBe("legacy");
      expect(session.info.eraChoice).toMatchObject({ era: "legacy", setting: "auto" });
      // The toolkit refuses a request outside a session with HTTP 400, in its own words.
      expect(session.info.eraChoice.reason).toMatch(/^legacy: server\/discover answered HTTP 400, -32600 \(Bad Request: there is no Mcp-Session-Id header/);
      const methods = session.frames((e) => e.direction === "out").map((f) => f.value.method);
      expect(methods.slice(0, 2)).toEqual(["server/discover", "initialize"]);
      const result = await session.connection.callTool("echo", { message: "served, auto" });
      expect(result).toMatchObject({ kind: "success" });
      expect(JSON.stringify(result)).toContain("served, auto");
      expect(session.errors).toEqual([]);
    } finally {
      await session.close();
    }
  });

  it("legacy: initialize with the version asked for, and no probe", async () => {
    const session = await relayed(backend, { transport: "streamable-http", url }, { era: "legacy", protocolVersion: "2025-06-18" });
    try {
      expect(session.info).toMatchObject({ era: "legacy", negotiatedVersion: "2025-06-18", requestedVersion: "2025-06-18" });
      const methods = session.frames((e) => e.direction === "out").map((f) => f.value.method);
      expect(methods).not.toContain("server/discover");
      expect(methods[0]).toBe("initialize");
      expect((await session.connection.callTool("add", { a: 2, b: 3 })).kind).toBe("success");
      expect(session.errors).toEqual([]);
    } finally {
      await session.close();
    }
  });
});
