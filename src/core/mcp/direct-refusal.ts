import { RelayError } from "./relay-error.ts";

/**
 * A fetch from the page that failed before any response. Browsers give every such failure the
 * same TypeError, whether CORS refused the request or the server could not be reached at all.
 */
export class DirectRefusedError extends RelayError {
  readonly reason: "cors" | "unreachable";
  constructor(reason: "cors" | "unreachable", message: string) {
    super(reason === "cors" ? "cors" : "tcp", message);
    this.reason = reason;
  }
}

/** The socket error code Node's fetch keeps under `cause`; browsers keep none. */
function causeCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; typeof e === "object" && e !== null && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && code !== "UND_ERR_SOCKET") return code;
    const inner = (e as { errors?: unknown[] }).errors;
    if (Array.isArray(inner) && inner.length > 0) return causeCode(inner[0]);
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Names a fetch failure. A TypeError is told apart by asking again with `no-cors`: an opaque
 * answer means the server is there and refused this page's origin (CORS); another failure means
 * it cannot be reached. Anything else (an abort) is returned as it is.
 */
export async function nameRefusal(error: unknown, url: URL, fetch: typeof globalThis.fetch): Promise<Error> {
  if (!(error instanceof TypeError)) return error instanceof Error ? error : new Error(String(error));
  const code = causeCode(error);
  if (code !== undefined) return new DirectRefusedError("unreachable", `tcp: ${url.host} could not be reached (${code})`);
  let answered = false;
  try {
    await fetch(url, { method: "HEAD", mode: "no-cors", credentials: "omit", cache: "no-store" });
    answered = true;
  } catch {
    // Not reachable even without CORS.
  }
  return answered
    ? new DirectRefusedError("cors", `the server at ${url.origin} does not allow this page's origin (CORS); use the relay`)
    : new DirectRefusedError("unreachable", `the page could not reach ${url.origin} (${error.message}): the server is down, the name does not resolve, or the browser blocked it; use the relay`);
}

/** A Content-Type's media type, lower case, without parameters. */
export function mediaType(value: string | null): string {
  return (value ?? "").split(";")[0]!.trim().toLowerCase();
}

export function headerObject(headers: Headers): Record<string, string> {
  return Object.fromEntries(headers.entries());
}
