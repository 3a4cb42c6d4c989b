import { describe, expect, it } from "vitest";
import { mcpRetryStep } from "./client-steps.ts";
import type { OAuthRequest, OAuthResponse } from "./exchange.ts";
import { StepRun, type OAuthWorld } from "./step-run.ts";
import type { Tokens } from "./token.ts";

const URL = "http://127.0.0.1:9/mcp";
const TOKENS: Tokens = { accessToken: "at-1", tokenType: "Bearer", scopes: [], obtainedAt: 0 };

function answer(status: number, body: unknown, headers: Record<string, string> = {}): OAuthResponse {
  return { status, statusText: "", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) };
}

/** A world whose server answers each request by `serve`, keeping what was sent. */
function world(serve: (r: OAuthRequest) => OAuthResponse): { world: OAuthWorld; sent: OAuthRequest[] } {
  const sent: OAuthRequest[] = [];
  return {
    sent,
    world: {
      send: async (r) => {
        sent.push(r);
        return { ok: true, response: serve(r), durationMs: 1 };
      },
      now: () => 0,
      randomBytes: (n) => new Uint8Array(n),
      sha256: async () => new Uint8Array(32),
    },
  };
}

const method = (r: OAuthRequest) => (JSON.parse(r.body ?? "{}") as { method?: string }).method;

describe("the MCP request with the token", () => {
  it("asks a server that refuses initialize for its protocol-version header again with server/discover, in the 2026-07-28 shape", async () => {
    const w = world((r) =>
      method(r) === "initialize"
        ? answer(400, { jsonrpc: "2.0", id: 1, error: { code: -32020, message: "Missing MCP-Protocol-Version header" } })
        : answer(200, { jsonrpc: "2.0", id: 1, result: { supportedVersions: ["2026-07-28"], capabilities: {}, _meta: { "io.modelcontextprotocol/serverInfo": { name: "modern-one", version: "1" } } } }),
    );
    const run = new StepRun(w.world, 7, "mcp-retry", () => {});
    expect(await mcpRetryStep(run, URL, TOKENS)).toEqual({ kind: "ok" });
    expect(w.sent.map(method)).toEqual(["initialize", "server/discover"]);
    const discover = w.sent[1]!;
    expect(discover.headers).toMatchObject({ "Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "server/discover", authorization: "Bearer at-1" });
    expect(JSON.parse(discover.body!).params._meta["io.modelcontextprotocol/protocolVersion"]).toBe("2026-07-28");
    expect(run.record.verdict).toBe("ok");
    expect(run.record.notes.map((n) => n.text).join("\n")).toMatch(/speaks 2026-07-28, so server\/discover follows[\s\S]*server\/discover answered by modern-one/);
  });

  it("keeps to initialize for any other 400, and names the answer", async () => {
    const w = world(() => answer(400, { jsonrpc: "2.0", id: 1, error: { code: -32600, message: "Bad Request" } }));
    const run = new StepRun(w.world, 7, "mcp-retry", () => {});
    expect(await mcpRetryStep(run, URL, TOKENS)).toEqual({ kind: "failed" });
    expect(w.sent.map(method)).toEqual(["initialize"]);
    expect(run.record.reason).toMatch(/^the MCP server answered HTTP 400/);
  });

  it("reports a 401 to server/discover as a refused token", async () => {
    const w = world((r) =>
      method(r) === "initialize"
        ? answer(400, { jsonrpc: "2.0", id: 1, error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2026-07-28"], requested: "2025-11-25" } } })
        : answer(401, { error: "invalid_token" }, { "www-authenticate": 'Bearer error="invalid_token"' }),
    );
    const run = new StepRun(w.world, 7, "mcp-retry", () => {});
    expect((await mcpRetryStep(run, URL, TOKENS)).kind).toBe("unauthorized");
    expect(w.sent.map(method)).toEqual(["initialize", "server/discover"]);
  });
});
