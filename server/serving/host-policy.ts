/**
 * Who may talk to the MCP endpoint. It listens on 127.0.0.1 only, and a browser page can still
 * reach that address through DNS rebinding (evil.example resolving to 127.0.0.1) or by posting
 * from its own origin; so the Host must be a loopback name with our port, and an Origin, when
 * sent, must be a loopback page.
 */
import { hostWithPort } from "../http/origin-policy.ts";

export const MCP_PATH = "/mcp";
const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "::1"];
const LOOPBACK_HOSTNAMES = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** The Host header names this machine's loopback interface on our port. */
export function mcpHostAllowed(host: string | undefined, port: number): boolean {
  if (host === undefined) return false;
  const wanted = host.toLowerCase();
  return LOOPBACK_NAMES.some((name) => {
    const full = hostWithPort(name, port);
    return wanted === full || (port === 80 && wanted === full.slice(0, full.lastIndexOf(":")));
  });
}

/** No Origin (not a browser), or a page served from a loopback address on any port. */
export function mcpOriginAllowed(origin: string | undefined): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return (url.protocol === "http:" || url.protocol === "https:") && LOOPBACK_HOSTNAMES.has(url.hostname) && url.origin === origin.toLowerCase();
}

/** CORS for an allowed loopback page, such as a browser-based client talking to us directly. */
export function corsHeaders(origin: string | undefined): Record<string, string> {
  if (origin === undefined) return {};
  return { "Access-Control-Allow-Origin": origin, Vary: "Origin", "Access-Control-Expose-Headers": "Mcp-Session-Id, Mcp-Protocol-Version" };
}

const ALLOWED_HEADERS = "Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID, Mcp-Method, Mcp-Name";
/** A 2026-07-28 client mirrors tool arguments into headers named by the tool: `Mcp-Param-<Name>`. */
const PARAM_HEADER = /^mcp-param-[a-z0-9!#$%&'*+.^_`|~-]{1,100}$/;

/** The preflight answer: the fixed request headers, plus the `Mcp-Param-*` ones the page asks for. */
export function preflightHeaders(requested: string | undefined): Record<string, string> {
  const params = (requested ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => PARAM_HEADER.test(name))
    .slice(0, 32);
  return {
    "Access-Control-Allow-Methods": "GET, POST, DELETE, OPTIONS",
    "Access-Control-Allow-Headers": [ALLOWED_HEADERS, ...params].join(", "),
    "Access-Control-Max-Age": "600",
  };
}
