import { describe, expect, it } from "vitest";
import { challengeIn } from "./mcp-oauth-bridge.svelte.ts";
import { REDIRECT_MESSAGE, redirectOf, stateOf } from "./redirect-listener.ts";

const OWN = "http://127.0.0.1:7420";

describe("redirect messages", () => {
  it("takes a redirect message from this origin about a URL on this origin", () => {
    expect(redirectOf({ type: REDIRECT_MESSAGE, url: `${OWN}/oauth/callback?code=a&state=b` }, OWN, OWN)).toBe(`${OWN}/oauth/callback?code=a&state=b`);
  });

  it.each([
    [{ type: REDIRECT_MESSAGE, url: `${OWN}/oauth/callback?code=a` }, "https://evil.example", "a message from another origin"],
    [{ type: REDIRECT_MESSAGE, url: "https://evil.example/oauth/callback?code=a" }, OWN, "a URL on another origin"],
    [{ type: "other", url: `${OWN}/x` }, OWN, "another message type"],
    [{ type: REDIRECT_MESSAGE, url: 42 }, OWN, "a URL that is not a string"],
    [{ type: REDIRECT_MESSAGE, url: `${OWN}/${"a".repeat(20_000)}` }, OWN, "an oversize URL"],
    [{ type: REDIRECT_MESSAGE, url: "::" }, OWN, "no URL at all"],
    ["just text", OWN, "not an object"],
    [null, OWN, "null"],
  ])("ignores %j from %s (%s)", (data, origin, _why) => {
    expect(redirectOf(data, origin, OWN)).toBeUndefined();
  });

  it("reads state from the query or the fragment", () => {
    expect(stateOf(`${OWN}/cb?code=1&state=s1`)).toBe("s1");
    expect(stateOf(`${OWN}/cb#code=1&state=s2`)).toBe("s2");
    expect(stateOf("not a url")).toBeNull();
  });
});

describe("challengeIn", () => {
  it("finds the WWW-Authenticate of the last answer with the status", () => {
    const lines = [
      { type: "http" as const, status: 401, headers: { "www-authenticate": "Bearer first" }, at: 1 },
      { type: "note" as const, text: "x" },
      { type: "http" as const, status: 403, headers: { "www-authenticate": 'Bearer error="insufficient_scope"' }, at: 2 },
      { type: "http" as const, status: 401, headers: { "www-authenticate": "Bearer second" }, at: 3 },
    ];
    expect(challengeIn(lines, 401)).toBe("Bearer second");
    expect(challengeIn(lines, 403)).toBe('Bearer error="insufficient_scope"');
    expect(challengeIn(lines, 500)).toBeUndefined();
  });
});
