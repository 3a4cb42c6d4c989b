import { describe, expect, it } from "vitest";
import { authorizationServerMetadataUrls, canonicalResource, isLoopbackUrl, issuerProblem, protectedResourceMetadataUrls, resourceCovers } from "./discovery-urls.ts";

describe("protected-resource metadata locations (RFC 9728 §3.1, MCP root fallback)", () => {
  it.each([
    ["https://mcp.example.com/mcp", ["https://mcp.example.com/.well-known/oauth-protected-resource/mcp", "https://mcp.example.com/.well-known/oauth-protected-resource"]],
    ["https://mcp.example.com/v1/mcp/", ["https://mcp.example.com/.well-known/oauth-protected-resource/v1/mcp", "https://mcp.example.com/.well-known/oauth-protected-resource"]],
    ["https://mcp.example.com/", ["https://mcp.example.com/.well-known/oauth-protected-resource"]],
    ["https://mcp.example.com", ["https://mcp.example.com/.well-known/oauth-protected-resource"]],
    ["http://127.0.0.1:8080/mcp?tenant=a", ["http://127.0.0.1:8080/.well-known/oauth-protected-resource/mcp?tenant=a", "http://127.0.0.1:8080/.well-known/oauth-protected-resource"]],
    ["HTTPS://MCP.Example.COM:443/mcp#frag", ["https://mcp.example.com/.well-known/oauth-protected-resource/mcp", "https://mcp.example.com/.well-known/oauth-protected-resource"]],
  ])("%s", (server, urls) => {
    expect(protectedResourceMetadataUrls(server)).toEqual(urls);
  });
});

describe("authorization-server metadata locations (RFC 8414 §3.1, then OpenID Connect)", () => {
  it.each([
    ["https://auth.example.com", ["https://auth.example.com/.well-known/oauth-authorization-server", "https://auth.example.com/.well-known/openid-configuration"]],
    ["https://auth.example.com/", ["https://auth.example.com/.well-known/oauth-authorization-server", "https://auth.example.com/.well-known/openid-configuration"]],
    [
      "https://auth.example.com/tenant1",
      [
        "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
        "https://auth.example.com/.well-known/openid-configuration/tenant1",
        "https://auth.example.com/tenant1/.well-known/openid-configuration",
      ],
    ],
    [
      "http://127.0.0.1:9000/realms/dev/",
      [
        "http://127.0.0.1:9000/.well-known/oauth-authorization-server/realms/dev",
        "http://127.0.0.1:9000/.well-known/openid-configuration/realms/dev",
        "http://127.0.0.1:9000/realms/dev/.well-known/openid-configuration",
      ],
    ],
  ])("%s", (issuer, urls) => {
    expect(authorizationServerMetadataUrls(issuer)).toEqual(urls);
  });

  it("names what cannot be an issuer", () => {
    expect(issuerProblem("https://auth.example.com/t")).toBeUndefined();
    expect(issuerProblem("auth.example.com")).toMatch(/not an absolute URL/);
    expect(issuerProblem("ftp://auth.example.com")).toMatch(/not an http\(s\) URL/);
    expect(issuerProblem("https://auth.example.com/?a=1")).toMatch(/query or fragment/);
  });
});

describe("resourceCovers", () => {
  const server = "https://mcp.example.com/api/mcp";
  it.each([
    ["https://mcp.example.com/api/mcp", true],
    ["https://mcp.example.com/api/mcp/", true],
    ["https://mcp.example.com/api", true],
    ["https://mcp.example.com", true],
    ["https://mcp.example.com/ap", false],
    ["https://mcp.example.com/api/mcp/deeper", false],
    ["https://mcp.example.com/other", false],
    ["https://evil.example.com/api/mcp", false],
    ["http://mcp.example.com/api/mcp", false],
    ["https://mcp.example.com:8443/api/mcp", false],
  ])("%s → %s", (resource, ok) => {
    expect(resourceCovers(resource, server).ok).toBe(ok);
  });

  it("names another origin as such", () => {
    const got = resourceCovers("https://evil.example.com/mcp", "https://mcp.example.com/mcp");
    expect(got.ok ? "" : got.why).toMatch(/another origin \(https:\/\/evil\.example\.com\)/);
  });
});

describe("canonicalResource and loopback", () => {
  it("drops the fragment and keeps the rest as given (no slash added to a pathless URL)", () => {
    expect(canonicalResource("https://mcp.example.com/Mcp#x")).toBe("https://mcp.example.com/Mcp");
    expect(canonicalResource("http://127.0.0.1:9000")).toBe("http://127.0.0.1:9000");
    expect(() => canonicalResource("not a url")).toThrow();
  });
  it("knows loopback hosts", () => {
    expect(["http://127.0.0.1:1/", "http://localhost/", "http://[::1]:8/"].map(isLoopbackUrl)).toEqual([true, true, true]);
    expect(["http://10.0.0.1/", "https://example.com/", "nonsense"].map(isLoopbackUrl)).toEqual([false, false, false]);
  });
});
