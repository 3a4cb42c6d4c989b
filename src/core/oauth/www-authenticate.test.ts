import { describe, expect, it } from "vitest";
import { bearerChallenge, parseWwwAuthenticate, scopeList } from "./www-authenticate.ts";

describe("parseWwwAuthenticate", () => {
  it.each([
    [
      'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", scope="files:read files:write"',
      [{ scheme: "bearer", params: { resource_metadata: "https://mcp.example.com/.well-known/oauth-protected-resource/mcp", scope: "files:read files:write" } }],
    ],
    [
      'Bearer error="invalid_token", error_description="The access token expired"',
      [{ scheme: "bearer", params: { error: "invalid_token", error_description: "The access token expired" } }],
    ],
    // RFC 9110 §11.6.1's own example: two challenges, an escaped quote, a token value.
    [
      'Newauth realm="apps", type=1, title="Login to \\"apps\\"", Basic realm="simple"',
      [
        { scheme: "newauth", params: { realm: "apps", type: "1", title: 'Login to "apps"' } },
        { scheme: "basic", params: { realm: "simple" } },
      ],
    ],
    ['Basic realm="x", Bearer scope="s"', [{ scheme: "basic", params: { realm: "x" } }, { scheme: "bearer", params: { scope: "s" } }]],
    ["Negotiate YIIGhgYJKoZIhvcSAQICAQBuggZ1MIIGcaADAgEFoQMCAQ6iBwMFACAAAACj==", [{ scheme: "negotiate", params: {}, token68: "YIIGhgYJKoZIhvcSAQICAQBuggZ1MIIGcaADAgEFoQMCAQ6iBwMFACAAAACj==" }]],
    ['bearer Realm = "spaced" , ERROR=insufficient_scope', [{ scheme: "bearer", params: { realm: "spaced", error: "insufficient_scope" } }]],
    ["Bearer", [{ scheme: "bearer", params: {} }]],
    ['Bearer realm="first", realm="second"', [{ scheme: "bearer", params: { realm: "first" } }]],
    // An unterminated quoted string ends at the end of the header instead of running into another.
    ['Bearer realm="open', [{ scheme: "bearer", params: { realm: "open" } }]],
    [", ,  ,", []],
    ["", []],
    ['="x", Bearer scope="a"', [{ scheme: "bearer", params: { scope: "a" } }]],
  ])("%s", (header, expected) => {
    expect(parseWwwAuthenticate(header)).toEqual(expected);
  });

  it("finds the Bearer challenge among others, or none", () => {
    expect(bearerChallenge('Basic realm="x", Bearer resource_metadata="https://a/b"')?.params.resource_metadata).toBe("https://a/b");
    expect(bearerChallenge('Basic realm="x"')).toBeUndefined();
    expect(bearerChallenge(undefined)).toBeUndefined();
  });

  it("does not hang or blow up on a long hostile header", () => {
    const hostile = `Bearer ${'a="\\'.repeat(20_000)}`;
    const started = performance.now();
    expect(parseWwwAuthenticate(hostile)).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe("scopeList", () => {
  it("splits on spaces and drops empties and repeats", () => {
    expect(scopeList("  mcp:read  mcp:write mcp:read ")).toEqual(["mcp:read", "mcp:write"]);
    expect(scopeList(undefined)).toEqual([]);
    expect(scopeList("")).toEqual([]);
  });
});
