/**
 * A local OAuth setup for tests, all on 127.0.0.1 with free ports and no internet: an
 * authorization server (authorization-server.ts) on its own origin, and an MCP server built on
 * the SDK's v2 server package behind a bearer check that answers 401 with a WWW-Authenticate
 * challenge and RFC 9728 metadata, or 403 insufficient_scope for the write tool without
 * mcp:write. `set` flips the switches (see switches.ts) while it runs.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";
import { closeServer, listenLocal, readBody, RequestLog, type RecordedRequest } from "../a2a-peers/request-log.ts";
import { TestAuthorizationServer, type IssuedToken } from "./authorization-server.ts";
import { sendResponse, toRequest } from "./node-fetch-adapter.ts";
import { DEFAULT_SWITCHES, WRITE_SCOPE, type OAuthSwitches } from "./switches.ts";

export { DEFAULT_SWITCHES, WRITE_SCOPE, type OAuthSwitches } from "./switches.ts";

export interface OAuthTestSetup {
  /** The protected MCP endpoint, e.g. http://127.0.0.1:41234/mcp. */
  readonly mcpUrl: string;
  readonly resourceBase: string;
  readonly authBase: string;
  /** The issuer as the resource metadata names it. */
  readonly issuer: string;
  /** A client ID metadata document served by the resource origin (its redirect set by `cimdRedirect`). */
  readonly cimdUrl: string;
  readonly as: TestAuthorizationServer;
  /** A second authorization server, named by the metadata when `prmAuthServer` is "second". */
  readonly secondAs: TestAuthorizationServer;
  readonly secondAuthRequests: readonly RecordedRequest[];
  /** Requests to the MCP server and to the AS, oldest first (bodies included: test secrets only). */
  readonly resourceRequests: readonly RecordedRequest[];
  readonly authRequests: readonly RecordedRequest[];
  set(patch: Partial<OAuthSwitches>): void;
  reset(): void;
  cimdRedirect: string;
  preRegister(id: string, redirectUris: readonly string[], secret?: { value: string; method: "client_secret_basic" | "client_secret_post" }): void;
  expireAccessTokens(): void;
  close(): Promise<void>;
}

const CUSTOM_PRM = "/meta/protected-resource.json";

function mcpHandler() {
  return createMcpHandler((ctx) => {
    const server = new McpServer({ name: "oauth-protected", version: "1.0.0" });
    const who = ctx.authInfo;
    server.registerTool("whoami", { description: "Says which client and scopes the token carries", inputSchema: z.object({}) }, async () => ({
      content: [{ type: "text", text: `hello ${who?.clientId ?? "?"} (${(who?.scopes ?? []).join(" ")})` }],
    }));
    server.registerTool("write-note", { description: `Needs ${WRITE_SCOPE}`, inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
      content: [{ type: "text", text: `noted: ${text}` }],
    }));
    return server;
  });
}

export async function startOAuthSetup(): Promise<OAuthTestSetup> {
  let switches: OAuthSwitches = { ...DEFAULT_SWITCHES };
  const as = new TestAuthorizationServer(() => switches);
  const secondAs = new TestAuthorizationServer(() => switches, "second-client");
  const resourceLog = new RequestLog();
  const authLog = new RequestLog();
  const secondLog = new RequestLog();
  const handler = mcpHandler();
  let resourceBase = "";
  let mcpUrl = "";
  const state = { cimdRedirect: "" };

  const prmPath = () => (switches.prmAt === "path" ? "/.well-known/oauth-protected-resource/mcp" : switches.prmAt === "root" ? "/.well-known/oauth-protected-resource" : CUSTOM_PRM);
  const challenge = (extra: string) => {
    const parts = [extra];
    if (switches.wwwResourceMetadata && switches.prmAt !== "none") parts.push(`resource_metadata="${resourceBase}${prmPath()}"`);
    return `Bearer ${parts.filter((p) => p !== "").join(", ")}`;
  };
  const valid = (header: string | undefined): IssuedToken | "none" | "bad" => {
    const token = /^Bearer (\S+)$/.exec(header ?? "")?.[1];
    if (token === undefined) return "none";
    const issued = as.tokens.get(token) ?? secondAs.tokens.get(token);
    return issued !== undefined && issued.expiresAt > Date.now() ? issued : "bad";
  };

  async function resource(req: IncomingMessage, res: ServerResponse, path: string, body: Buffer): Promise<void> {
    if (req.method === "GET" && switches.prmAt !== "none" && path === prmPath()) {
      if (switches.prmBroken === "not-json") return void res.writeHead(200, { "content-type": "text/html" }).end("<html><body>Not here</body></html>");
      const named = switches.prmBroken === "other-origin" ? "https://elsewhere.example.com/mcp" : switches.prmAt === "root" ? resourceBase : mcpUrl;
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({ resource: named, authorization_servers: [switches.prmAuthServer === "second" ? secondAs.issuer : as.issuer], ...(switches.prmScopes ? { scopes_supported: switches.prmScopes } : {}), bearer_methods_supported: ["header"] }),
      );
      return;
    }
    if (req.method === "GET" && path === "/clients/patchbay.json") {
      const url = `${resourceBase}/clients/patchbay.json`;
      return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ client_id: url, client_name: "Patchbay (test)", redirect_uris: [state.cimdRedirect], token_endpoint_auth_method: "none" }));
    }
    if (path !== "/mcp") return void res.writeHead(404).end();
    const text = body.toString("utf8");
    if (switches.openInitialize && req.headers.authorization === undefined && /"method"\s*:\s*"(initialize|notifications\/[^"]+)"/.test(text)) {
      return sendResponse(res, await handler.fetch(toRequest(req, resourceBase, body)));
    }
    let token = valid(req.headers.authorization);
    if (switches.expireAtFirstCall && typeof token === "object" && !token.refreshed && /"method"\s*:\s*"tools\/call"/.test(body.toString("utf8"))) {
      token.expiresAt = Date.now() - 1;
      token = "bad";
    }
    if (token === "none" || token === "bad") {
      const extra = [token === "bad" ? 'error="invalid_token", error_description="The access token is invalid or expired"' : "", switches.wwwScope ? `scope="${switches.wwwScope}"` : ""].filter((x) => x !== "").join(", ");
      res.writeHead(401, { "www-authenticate": challenge(extra), "content-type": "application/json" }).end(JSON.stringify({ error: token === "bad" ? "invalid_token" : "unauthorized" }));
      return;
    }
    if (req.method === "POST" && !token.scopes.includes(WRITE_SCOPE) && /"name"\s*:\s*"write-note"/.test(body.toString("utf8"))) {
      res.writeHead(403, { "www-authenticate": challenge(`error="insufficient_scope", scope="mcp:read ${WRITE_SCOPE}"`), "content-type": "application/json" }).end(JSON.stringify({ error: "insufficient_scope" }));
      return;
    }
    const answer = await handler.fetch(toRequest(req, resourceBase, body), { authInfo: { token: "(checked)", clientId: token.clientId, scopes: [...token.scopes], expiresAt: Math.floor(token.expiresAt / 1000) } });
    await sendResponse(res, answer);
  }

  const serve = (log: RequestLog, handle: (req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams, body: Buffer) => Promise<void>) =>
    createServer((req, res) => {
      void (async () => {
        const body = await readBody(req);
        log.record(req, body.toString("utf8"));
        const url = new URL(req.url ?? "/", "http://x");
        await handle(req, res, url.pathname, url.searchParams, body);
      })().catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
        res.end(`test server error: ${(error as Error).message}`);
      });
    });

  const resourceServer: Server = serve(resourceLog, (req, res, path, _q, body) => resource(req, res, path, body));
  const asServer = (server: TestAuthorizationServer, log: RequestLog) =>
    serve(log, async (req, res, path, query, body) => {
      if (!(await server.handle(req, res, path, query, body.toString("utf8")))) res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not_found"}');
    });
  const authServer: Server = asServer(as, authLog);
  const secondServer: Server = asServer(secondAs, secondLog);
  resourceBase = `http://127.0.0.1:${await listenLocal(resourceServer)}`;
  mcpUrl = `${resourceBase}/mcp`;
  as.base = `http://127.0.0.1:${await listenLocal(authServer)}`;
  secondAs.base = `http://127.0.0.1:${await listenLocal(secondServer)}`;

  return {
    mcpUrl,
    resourceBase,
    authBase: as.base,
    get issuer() {
      return as.issuer;
    },
    cimdUrl: `${resourceBase}/clients/patchbay.json`,
    as,
    secondAs,
    secondAuthRequests: secondLog.requests,
    resourceRequests: resourceLog.requests,
    authRequests: authLog.requests,
    set: (patch) => (switches = { ...switches, ...patch }),
    reset: () => {
      switches = { ...DEFAULT_SWITCHES };
      resourceLog.clear();
      authLog.clear();
      secondLog.clear();
    },
    get cimdRedirect() {
      return state.cimdRedirect;
    },
    set cimdRedirect(value: string) {
      state.cimdRedirect = value;
    },
    preRegister: (id, redirectUris, secret) => as.register({ id, redirectUris, method: secret?.method ?? "none", ...(secret ? { secret: secret.value } : {}) }),
    expireAccessTokens: () => {
      as.expireAccessTokens();
      secondAs.expireAccessTokens();
    },
    close: async () => {
      await closeServer(resourceServer);
      await closeServer(authServer);
      await closeServer(secondServer);
    },
  };
}
