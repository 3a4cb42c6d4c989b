import { describe, expect, it } from "vitest";
import { hostWithPort, isLoopbackAddress, isWildcardHost, normalizeOrigin, originPolicy } from "./origin-policy.ts";

describe("Host and Origin policy", () => {
  const local = originPolicy({ port: 7420, boundHost: "127.0.0.1", exposed: false });

  it("allows the three loopback spellings on the bound port only", () => {
    for (const host of ["127.0.0.1:7420", "localhost:7420", "[::1]:7420", "LOCALHOST:7420"]) expect(local.hostAllowed(host), host).toBe(true);
    for (const host of ["127.0.0.1:7421", "localhost", "evil.example:7420", "127.0.0.1.nip.io:7420", "", undefined]) {
      expect(local.hostAllowed(host), String(host)).toBe(false);
    }
  });

  it("allows a missing Origin (non-browser clients) and only its own origins otherwise", () => {
    expect(local.originAllowed(undefined)).toBe(true);
    expect(local.originAllowed("http://127.0.0.1:7420")).toBe(true);
    expect(local.originAllowed("http://localhost:7420")).toBe(true);
    expect(local.originAllowed("http://[::1]:7420")).toBe(true);
    for (const origin of ["null", "https://127.0.0.1:7420", "http://127.0.0.1:7421", "http://evil.example", ""]) {
      expect(local.originAllowed(origin), origin).toBe(false);
    }
  });

  it("adds --allow-origin origins, and their hosts for dev proxies", () => {
    const dev = originPolicy({ port: 7420, boundHost: "127.0.0.1", exposed: false, allowOrigins: ["http://localhost:5173"] });
    expect(dev.originAllowed("http://localhost:5173")).toBe(true);
    expect(dev.hostAllowed("localhost:5173")).toBe(true);
    expect(dev.originAllowed("http://localhost:5174")).toBe(false);
  });

  it("adds the bound address only when exposed (or when it is loopback)", () => {
    expect(originPolicy({ port: 1, boundHost: "192.168.1.5", exposed: false }).hostAllowed("192.168.1.5:1")).toBe(false);
    expect(originPolicy({ port: 1, boundHost: "192.168.1.5", exposed: true }).hostAllowed("192.168.1.5:1")).toBe(true);
    expect(originPolicy({ port: 1, boundHost: "127.0.0.2", exposed: false }).hostAllowed("127.0.0.2:1")).toBe(true);
    const wild = originPolicy({ port: 1, boundHost: "0.0.0.0", exposed: true, interfaceAddresses: ["10.0.0.7", "fe80::1"] });
    expect(wild.hostAllowed("10.0.0.7:1")).toBe(true);
    expect(wild.hostAllowed("[fe80::1]:1")).toBe(true);
    expect(wild.hostAllowed("0.0.0.0:1")).toBe(false);
    expect(wild.originAllowed("http://10.0.0.7:1")).toBe(true);
  });

  it("on port 80 also allows the Host without a port", () => {
    expect(originPolicy({ port: 80, boundHost: "127.0.0.1", exposed: false }).hostAllowed("localhost")).toBe(true);
  });
});

describe("address helpers", () => {
  it("formats host:port with IPv6 in brackets", () => {
    expect(hostWithPort("::1", 5)).toBe("[::1]:5");
    expect(hostWithPort("[::1]", 5)).toBe("[::1]:5");
    expect(hostWithPort("127.0.0.1", 5)).toBe("127.0.0.1:5");
  });

  it("recognises loopback and wildcard addresses", () => {
    for (const h of ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost"]) expect(isLoopbackAddress(h), h).toBe(true);
    for (const h of ["0.0.0.0", "::", "10.0.0.1", "127.0.0.256", "localhost.evil", "128.0.0.1"]) expect(isLoopbackAddress(h), h).toBe(false);
    expect(isWildcardHost("0.0.0.0")).toBe(true);
    expect(isWildcardHost("::")).toBe(true);
    expect(isWildcardHost("127.0.0.1")).toBe(false);
  });

  it("normalizes origins and rejects anything else", () => {
    expect(normalizeOrigin("http://LOCALHOST:5173")).toBe("http://localhost:5173");
    expect(normalizeOrigin("http://localhost:5173/")).toBe("http://localhost:5173");
    expect(normalizeOrigin("https://example.com:443")).toBe("https://example.com");
    for (const bad of ["localhost:5173", "ftp://x", "http://x/path", "http://u:p@x", "http://x?q", "*", ""]) {
      expect(normalizeOrigin(bad), bad).toBeNull();
    }
  });
});
