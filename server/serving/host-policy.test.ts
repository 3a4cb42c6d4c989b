import { describe, expect, it } from "vitest";
import { corsHeaders, mcpHostAllowed, mcpOriginAllowed, preflightHeaders } from "./host-policy.ts";

describe("the MCP endpoint's Host check", () => {
  it.each(["127.0.0.1:7421", "localhost:7421", "LOCALHOST:7421", "[::1]:7421"])("allows %s", (host) => {
    expect(mcpHostAllowed(host, 7421)).toBe(true);
  });

  it.each([undefined, "", "evil.example.com", "evil.example.com:7421", "127.0.0.1:7420", "127.0.0.1", "localhost.evil.com:7421", "127.0.0.2:7421", "0.0.0.0:7421"])(
    "refuses %s",
    (host) => {
      expect(mcpHostAllowed(host, 7421)).toBe(false);
    },
  );

  it("allows a bare loopback name on port 80 only", () => {
    expect(mcpHostAllowed("localhost", 80)).toBe(true);
    expect(mcpHostAllowed("localhost", 81)).toBe(false);
  });
});

describe("the MCP endpoint's Origin check", () => {
  it.each([undefined, "http://localhost:6274", "http://127.0.0.1:7420", "https://localhost", "http://[::1]:5173"])("allows %s", (origin) => {
    expect(mcpOriginAllowed(origin)).toBe(true);
  });

  it.each(["null", "http://evil.example.com", "http://localhost.evil.com", "file://", "chrome-extension://abc", "http://localhost:6274/path", "garbage"])(
    "refuses %s",
    (origin) => {
      expect(mcpOriginAllowed(origin)).toBe(false);
    },
  );

  it("answers a loopback page with CORS headers that expose the session id", () => {
    expect(corsHeaders("http://localhost:6274")).toEqual({
      "Access-Control-Allow-Origin": "http://localhost:6274",
      Vary: "Origin",
      "Access-Control-Expose-Headers": "Mcp-Session-Id, Mcp-Protocol-Version",
    });
    expect(corsHeaders(undefined)).toEqual({});
  });

  it("lets a page send the 2026-07-28 headers, Mcp-Param-* ones only as it names them, and nothing else it asks for", () => {
    const allowed = preflightHeaders("Content-Type, mcp-method, Mcp-Param-Region, X-Evil, mcp-param-, mcp-param-a b")["Access-Control-Allow-Headers"]!.split(", ");
    expect(allowed).toEqual(expect.arrayContaining(["Mcp-Method", "Mcp-Name", "Mcp-Protocol-Version", "mcp-param-region"]));
    expect(allowed.map((h) => h.toLowerCase())).not.toContain("x-evil");
    expect(allowed.filter((h) => h.startsWith("mcp-param-"))).toEqual(["mcp-param-region"]);
    expect(preflightHeaders(undefined)["Access-Control-Allow-Methods"]).toBe("GET, POST, DELETE, OPTIONS");
  });
});
