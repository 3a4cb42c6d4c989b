/**
 * `patchbay call mcp --oauth` against the local authorization server and its protected MCP
 * server: the token got without a browser when the server approves at once, or through the
 * loopback redirect when a person must approve; an expired token refreshed and the call made
 * again; a 403 insufficient_scope answered by a new authorization; failures named by step; and
 * no secret on the terminal.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../helpers/http-client.ts";
import { startOAuthSetup, type OAuthTestSetup } from "../helpers/oauth-server/index.ts";

let as: OAuthTestSetup;
beforeAll(async () => {
  as = await startOAuthSetup();
});
afterAll(() => as.close());
beforeEach(() => as.reset());

async function call(args: string[], env: Record<string, string> = {}, during?: (err: () => string) => Promise<void>) {
  const cli = runCli(["call", "mcp", ...args], env);
  if (during) await during(() => cli.stderr.join(""));
  const code = await cli.done;
  return { code, out: cli.stdout.join(""), err: cli.stderr.join("") };
}

const secretsOf = () => [...as.as.tokens.keys(), ...as.authRequests.flatMap((r) => [...new URLSearchParams(r.body).entries()].filter(([k]) => ["code", "code_verifier", "refresh_token", "client_secret"].includes(k)).map(([, v]) => v))];

describe("patchbay call mcp --oauth", () => {
  it("gets a token without a browser when the server approves at once, and calls the tool", async () => {
    const r = await call([as.mcpUrl, "whoami", "--oauth"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^hello client-\d+ \(mcp:read\)\n$/);
    expect(r.err).toContain("oauth: ok   1. Request without a token");
    expect(r.err).toContain("oauth: ok   6. Token exchange");
    expect(r.err).toContain("answered at once, without a person");
    for (const secret of secretsOf()) expect(r.err + r.out).not.toContain(secret);
  });

  it("waits for the browser's redirect on the loopback listener when a person must approve", async () => {
    as.set({ consent: "page" });
    const r = await call([as.mcpUrl, "whoami", "--oauth", "--oauth-wait", "20"], {}, async (err) => {
      for (let i = 0; i < 400 && !/open this URL/.test(err()); i++) await new Promise((res) => setTimeout(res, 25));
      const url = /open this URL in a browser to authorize:\n {2}(\S+)/.exec(err())?.[1];
      expect(url).toBeDefined();
      // The person: the consent page, Approve, then the browser follows the redirect to the listener.
      const page = await (await fetch(url!)).text();
      const request = /name="request" value="([^"]+)"/.exec(page)![1]!;
      const decided = await fetch(`${as.issuer}/authorize/decision`, { method: "POST", body: new URLSearchParams({ request, decision: "approve" }), redirect: "manual" });
      const back = await fetch(decided.headers.get("location")!);
      expect(await back.text()).toContain("Patchbay has the answer");
    });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("hello client-");
  });

  it("refreshes a token the server refuses as expired at the call, and calls again", async () => {
    as.set({ expireAtFirstCall: true });
    const r = await call([as.mcpUrl, "whoami", "--oauth"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe(`hello ${[...as.as.clients.keys()].at(-1)} (mcp:read)\n`);
    expect(r.err).toMatch(/oauth: ok {3}\d+\. Token refresh/);
    expect(as.authRequests.filter((q) => new URLSearchParams(q.body).get("grant_type") === "refresh_token")).toHaveLength(1);
    const calls = as.resourceRequests.filter((q) => q.body.includes('"tools/call"'));
    expect(calls).toHaveLength(2);
  });

  it("answers a 403 insufficient_scope with an authorization for the scope it names", async () => {
    const r = await call([as.mcpUrl, "write-note", '{"text":"hi"}', "--oauth"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe("noted: hi\n");
    expect(r.err).toContain("the server wants more scope (mcp:read mcp:write): authorizing again");
  });

  it("authorizes when a server that let initialize through asks for a token later", async () => {
    as.set({ openInitialize: true });
    const r = await call([as.mcpUrl, "whoami", "--oauth"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^hello client-\d+ \(mcp:read\)\n$/);
    expect(r.err).toContain("the server answered without a token; calling, and authorizing when it asks");
    expect(r.err).toContain("the server asks for a token now (HTTP 401): authorizing");
  });

  it("gives up after three new tokens when the server keeps refusing", async () => {
    as.set({ expireAtFirstCall: true, refreshRefused: true });
    const r = await call([as.mcpUrl, "whoami", "--oauth"]);
    expect(r.code).toBe(1);
    expect(r.err).toContain("giving up after 3 new tokens");
    expect(as.authRequests.filter((q) => q.path === "/authorize")).toHaveLength(4);
  });

  it("uses a pre-registered client whose secret comes from the environment (client_secret_basic)", async () => {
    as.set({ registration: "absent", tokenAuthMethods: ["client_secret_basic"] });
    // The loopback listener's port changes per run; RFC 8252 has the server accept any port.
    as.preRegister("pre-1", ["http://127.0.0.1/callback"], { value: "s3cret-value", method: "client_secret_basic" });
    const r = await call([as.mcpUrl, "whoami", "--oauth", "--oauth-client-id", "pre-1", "--oauth-client-secret-env", "PB_SECRET"], { PB_SECRET: "s3cret-value" });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe("hello pre-1 (mcp:read)\n");
    const token = as.authRequests.find((q) => q.path === "/token")!;
    expect(token.headers.authorization).toBe(`Basic ${Buffer.from("pre-1:s3cret-value").toString("base64")}`);
    expect(r.err).not.toContain("s3cret-value");
  });

  it.each([
    [{ asBroken: "no-s256" as const }, /FAIL 3\. Authorization-server metadata \(RFC 8414\): .*lacks S256/],
    [{ registration: "refuse" as const }, /FAIL 4\. Client registration: the authorization server refused the registration: HTTP 400 invalid_client_metadata/],
    [{ deny: true }, /FAIL 5\. Authorization \(PKCE S256\): the authorization server answered error=access_denied \(The user said no\)/],
    [{ codeRefused: true }, /FAIL 6\. Token exchange: the token endpoint refused: HTTP 400 invalid_grant/],
  ])("%j: exits 1 naming the failed step", async (patch, why) => {
    as.set(patch);
    const r = await call([as.mcpUrl, "whoami", "--oauth", "--oauth-wait", "1"]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(why);
    expect(r.out).toBe("");
  });

  it("refuses --oauth with a token of its own, for a stdio server, and a secret variable that is not set", async () => {
    expect((await call([as.mcpUrl, "whoami", "--oauth", "-H", "Authorization: Bearer x"])).code).toBe(2);
    expect((await call(["node server.js", "whoami", "--oauth"])).code).toBe(2);
    const r = await call([as.mcpUrl, "whoami", "--oauth-client-id", "c", "--oauth-client-secret-env", "NOPE_UNSET"]);
    expect([r.code, r.err]).toEqual([2, expect.stringMatching(/NOPE_UNSET is not set/)]);
  });
});
