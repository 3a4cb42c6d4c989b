/**
 * Patchbay's own served toolkit (MCP over Streamable HTTP, started through the backend's API)
 * reached by the workbench's client through the relay: in auto mode server/discover is answered and
 * the client stays in 2026-07-28; pinned to legacy it never probes.
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
  it("auto: the served toolkit answers server/discover, so the client talks 2026-07-28 and calls work", async () => {
    const session = await relayed(backend, { transport: "streamable-http", url }, { era: "auto" });
    try {
      expect(session.info).toMatchObject({ era: "modern", negotiatedVersion: "2026-07-28" });
      expect(session.info.eraChoice).toMatchObject({ era: "modern", setting: "auto" });
      expect(session.info.eraChoice.reason).toBe("modern: server/discover answered with 2026-07-28");
      const methods = session.frames((e) => e.direction === "out").map((f) => f.value.method);
      expect(methods[0]).toBe("server/discover");
      expect(methods).not.toContain("initialize");
      const result = await session.connection.callTool("echo", { message: "served, auto" });
      expect(result).toMatchObject({ kind: "success" });
      expect(JSON.stringify(result)).toContain("served, auto");
      // Every modern request carries the envelope.
      const call = session.frames((e) => e.direction === "out").find((f) => f.value.method === "tools/call");
      expect(JSON.stringify(call?.value)).toContain("io.modelcontextprotocol/protocolVersion");
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
