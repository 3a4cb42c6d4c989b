import { describe, expect, it } from "vitest";
import { checkTargetUrl, MAX_TARGET_URL_CHARS, tckTarget } from "./conformance-target.ts";

describe("a conformance run's target URL", () => {
  it("takes an absolute http(s) URL, normalised", () => {
    expect(checkTargetUrl("mcp", " http://127.0.0.1:7421/mcp ")).toEqual({ ok: true, url: "http://127.0.0.1:7421/mcp" });
    expect(checkTargetUrl("a2a", "https://Agent.Example:8443")).toEqual({ ok: true, url: "https://agent.example:8443/" });
  });

  it("names what is wrong with anything else", () => {
    const problem = (kind: "mcp" | "a2a", value: unknown) => {
      const r = checkTargetUrl(kind, value);
      return r.ok ? "accepted" : r.problem;
    };
    expect(problem("mcp", undefined)).toBe('"url" must be an http(s) URL such as http://127.0.0.1:7421/mcp');
    expect(problem("mcp", 42)).toMatch(/^"url" must be an http\(s\) URL/);
    expect(problem("mcp", "file:///etc/passwd")).toBe('"url" must use http or https, not file; expected an http(s) URL such as http://127.0.0.1:7421/mcp');
    expect(problem("a2a", "javascript:alert(1)")).toMatch(/must use http or https, not javascript/);
    expect(problem("mcp", "127.0.0.1:7421/mcp")).toMatch(/must use http or https|is not a URL/);
    expect(problem("mcp", "not a url")).toMatch(/must not contain spaces/);
    expect(problem("mcp", "http://x/\u0000")).toMatch(/control characters/);
    expect(problem("mcp", "http://")).toMatch(/is not a URL/);
    expect(problem("mcp", `http://x/${"a".repeat(MAX_TARGET_URL_CHARS)}`)).toMatch(/characters long; at most 2048/);
  });

  it("gives the TCK a root card's base URL, and any other URL as it is", () => {
    expect(tckTarget("http://127.0.0.1:7422/.well-known/agent-card.json")).toEqual({ ok: true, url: "http://127.0.0.1:7422/" });
    expect(tckTarget("http://127.0.0.1:7422/.well-known/agent.json?x=1")).toEqual({ ok: true, url: "http://127.0.0.1:7422/" });
    expect(tckTarget("http://127.0.0.1:7422/")).toEqual({ ok: true, url: "http://127.0.0.1:7422/" });
    expect(tckTarget("http://127.0.0.1:7422/a2a/jsonrpc")).toEqual({ ok: true, url: "http://127.0.0.1:7422/a2a/jsonrpc" });
    const nested = tckTarget("http://h/agents/x/.well-known/agent-card.json");
    expect(nested.ok ? "accepted" : nested.problem).toMatch(/only at the root of its host \(http:\/\/h\/\.well-known\/agent-card\.json\); give the agent's JSON-RPC endpoint URL/);
  });
});
