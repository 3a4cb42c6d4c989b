import { describe, expect, it } from "vitest";
import { checkAuthServerMetadata, checkResourceMetadata } from "./metadata.ts";

const SERVER = "https://mcp.example.com/mcp";
const prm = (extra: Record<string, unknown> = {}) => ({ resource: SERVER, authorization_servers: ["https://auth.example.com"], ...extra });
const asDoc = (extra: Record<string, unknown> = {}) => ({
  issuer: "https://auth.example.com",
  authorization_endpoint: "https://auth.example.com/authorize",
  token_endpoint: "https://auth.example.com/token",
  registration_endpoint: "https://auth.example.com/register",
  response_types_supported: ["code"],
  code_challenge_methods_supported: ["S256"],
  ...extra,
});
const reason = (r: { ok: boolean; reason?: string }) => (r.ok ? "ok" : r.reason);

describe("protected-resource metadata", () => {
  it("accepts a document for this server (or a parent path) and takes the first authorization server", () => {
    const got = checkResourceMetadata(prm({ scopes_supported: ["mcp:read"] }), SERVER);
    expect(got.ok && got.value).toMatchObject({ resource: SERVER, authorizationServers: ["https://auth.example.com"], scopesSupported: ["mcp:read"] });
    expect(checkResourceMetadata(prm({ resource: "https://mcp.example.com" }), SERVER).ok).toBe(true);
  });

  it.each([
    [{ resource: undefined }, /no resource member/],
    [{ resource: "https://evil.example.com/mcp" }, /another origin \(https:\/\/evil\.example\.com\) than the MCP server/],
    [{ resource: "https://mcp.example.com/other" }, /names another path/],
    [{ authorization_servers: [] }, /names no authorization server/],
    [{ authorization_servers: "https://auth.example.com" }, /must be an array of strings/],
    [{ authorization_servers: ["not a url"] }, /not an absolute URL/],
    [{ scopes_supported: [1] }, /scopes_supported must be an array of strings/],
  ])("%j is refused", (patch, why) => {
    expect(reason(checkResourceMetadata(prm(patch), SERVER))).toMatch(why);
  });

  it("warns about several authorization servers and a header-less bearer method", () => {
    const got = checkResourceMetadata(prm({ authorization_servers: ["https://a.example", "https://b.example"], bearer_methods_supported: ["body"] }), SERVER);
    expect(got.notes.filter((n) => n.level === "warn").map((n) => n.text).join("\n")).toMatch(/2 authorization servers[\s\S]*does not list header/);
  });
});

describe("authorization-server metadata", () => {
  it("accepts a complete document and reads what the flow needs", () => {
    const got = checkAuthServerMetadata(asDoc({ token_endpoint_auth_methods_supported: ["none"], client_id_metadata_document_supported: true, authorization_response_iss_parameter_supported: true }), "https://auth.example.com");
    expect(got.ok && got.value).toMatchObject({
      authorizationEndpoint: "https://auth.example.com/authorize",
      tokenEndpoint: "https://auth.example.com/token",
      registrationEndpoint: "https://auth.example.com/register",
      tokenAuthMethods: ["none"],
      cimdSupported: true,
      issParameter: true,
    });
  });

  it.each([
    [{ issuer: "https://other.example.com" }, /issuer "https:\/\/other\.example\.com" does not match "https:\/\/auth\.example\.com"/],
    [{ issuer: undefined }, /no issuer member/],
    [{ code_challenge_methods_supported: undefined }, /code_challenge_methods_supported is missing/],
    [{ code_challenge_methods_supported: ["plain"] }, /\(plain\) lacks S256/],
    [{ code_challenge_methods_supported: [] }, /\(empty\) lacks S256/],
    [{ authorization_endpoint: undefined }, /authorization_endpoint is missing/],
    [{ token_endpoint: "javascript:alert(1)" }, /token_endpoint is not an http\(s\) URL/],
    [{ registration_endpoint: 42 }, /registration_endpoint is not an http\(s\) URL/],
    [{ grant_types_supported: ["client_credentials"] }, /lacks authorization_code/],
  ])("%j is refused", (patch, why) => {
    expect(reason(checkAuthServerMetadata(asDoc(patch), "https://auth.example.com"))).toMatch(why);
  });

  it("only warns about a different issuer for a server without resource metadata (2025-03-26)", () => {
    const got = checkAuthServerMetadata(asDoc({ issuer: "https://auth.example.com/oauth" }), "https://auth.example.com", true);
    expect(got.ok).toBe(true);
    expect(got.notes.find((n) => n.level === "warn")?.text).toMatch(/accepted, since a server without resource metadata/);
  });

  it("warns, without refusing, about a normalized issuer, endpoints elsewhere, plain http and no refresh grant", () => {
    const got = checkAuthServerMetadata(
      asDoc({ issuer: "https://auth.example.com/", token_endpoint: "http://tokens.example.net/t", grant_types_supported: ["authorization_code"] }),
      "https://auth.example.com",
    );
    expect(got.ok).toBe(true);
    const warned = got.notes.filter((n) => n.level === "warn").map((n) => n.text).join("\n");
    expect(warned).toMatch(/only once normalized/);
    expect(warned).toMatch(/token_endpoint is on another origin/);
    expect(warned).toMatch(/plain http on a non-loopback host/);
    expect(warned).toMatch(/does not list refresh_token/);
  });
});
