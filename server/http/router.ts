/**
 * The API route table. Each route declares whether it is safe (no side effects: nothing
 * spawned, fetched or written); the router refuses to be built with an unsafe GET, so a link or
 * an <img> on a hostile page can never trigger an action.
 */
import type { ServerResponse } from "node:http";
import { HttpError } from "./errors.ts";

export type Method = "GET" | "POST" | "PUT" | "DELETE";

/** Methods that may carry side effects. */
export const EFFECT_METHODS: ReadonlySet<Method> = new Set(["POST", "PUT", "DELETE"]);

export interface Reply {
  readonly status: number;
  /** Omitted for 204. */
  readonly body?: unknown;
  /** Instead of a JSON body: the route writes the response itself (a long-lived stream); status and body are ignored. */
  readonly stream?: (res: ServerResponse) => void;
}

export interface RouteRequest {
  readonly params: Readonly<Record<string, string>>;
  /** Reads and parses the JSON body (only routes that take a body call it). */
  readonly json: () => Promise<unknown>;
  /** Reads the body as bytes, whatever its Content-Type, up to the body limit (routes that relay frames verbatim). */
  readonly raw?: () => Promise<Buffer>;
  /** The query string's parameters (never logged: the hand-off URL carries the token there). */
  readonly query?: URLSearchParams;
  /** The request's headers as Node parsed them (names lower-cased); never logged. */
  readonly headers?: Readonly<Record<string, string | string[] | undefined>>;
}

export interface Route {
  readonly method: Method;
  /** Path pattern, `:name` segments capture one URL-decoded segment. */
  readonly path: string;
  /** True when the handler changes nothing: no process, no outbound request, no write. */
  readonly safe: boolean;
  readonly handler: (req: RouteRequest) => Promise<Reply>;
}

export type Match =
  | { readonly kind: "found"; readonly route: Route; readonly params: Record<string, string> }
  | { readonly kind: "wrong_method"; readonly allow: readonly Method[] }
  | { readonly kind: "none" };

export interface Router {
  readonly routes: readonly Route[];
  match(method: string, pathname: string): Match;
}

function segments(path: string): string[] {
  return path.replace(/^\//, "").split("/");
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, "bad_request", `malformed percent-encoding in path segment ${JSON.stringify(segment)}`);
  }
}

function matchPath(pattern: string[], actual: string[]): Record<string, string> | null {
  if (pattern.length !== actual.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const want = pattern[i]!;
    const got = actual[i]!;
    if (want.startsWith(":") && got !== "") params[want.slice(1)] = got;
    else if (want !== got) return null;
  }
  return params;
}

/** Build a router; throws if a GET route is declared with side effects. */
export function createRouter(routes: readonly Route[]): Router {
  for (const route of routes) {
    if (route.method === "GET" && !route.safe) {
      throw new Error(`route GET ${route.path} has side effects; use POST, PUT or DELETE`);
    }
  }
  const compiled = routes.map((route) => ({ route, pattern: segments(route.path) }));
  return {
    routes,
    match(method, pathname) {
      const actual = segments(pathname);
      const allow: Method[] = [];
      for (const { route, pattern } of compiled) {
        const raw = matchPath(pattern, actual);
        if (raw === null) continue;
        if (route.method !== method) {
          allow.push(route.method);
          continue;
        }
        const params: Record<string, string> = {};
        for (const [key, value] of Object.entries(raw)) params[key] = decodeSegment(value);
        return { kind: "found", route, params };
      }
      return allow.length > 0 ? { kind: "wrong_method", allow } : { kind: "none" };
    },
  };
}
