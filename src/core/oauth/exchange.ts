/**
 * One HTTP exchange of the OAuth flow as sent and as answered, and the sender that makes it (the
 * backend's OAuth route from the page, a direct fetch in Node). The flow records every exchange
 * verbatim; masking secrets is a matter of showing them (see mask.ts).
 */

export interface OAuthRequest {
  readonly method: "GET" | "POST" | "DELETE";
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The exact text sent; absent for GET. */
  readonly body?: string;
}

export interface OAuthResponse {
  readonly status: number;
  readonly statusText: string;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** True when the body was not valid UTF-8 (it is then decoded with replacement characters). */
  readonly invalidUtf8?: boolean;
}

/** Where a request failed before a whole answer came back. */
export type SendStep = "refused" | "dns" | "tcp" | "tls" | "timeout" | "size" | "http" | "backend";

export type SendResult =
  | { readonly ok: true; readonly response: OAuthResponse; readonly durationMs: number }
  | {
      readonly ok: false;
      readonly step: SendStep;
      readonly message: string;
      /** Status and headers, when they arrived before the failure (an oversize body). */
      readonly status?: number;
      readonly headers?: Readonly<Record<string, string>>;
    };

/** Makes one request and follows no redirect. Never throws: every failure is a result. */
export type OAuthSend = (request: OAuthRequest) => Promise<SendResult>;

export interface Exchange {
  readonly request: OAuthRequest;
  readonly result: SendResult;
  /** Wall time when it was sent (ms since the epoch). */
  readonly at: number;
}

/** The lower-case header of a response, or undefined. */
export function header(response: OAuthResponse, name: string): string | undefined {
  return response.headers[name.toLowerCase()];
}

/** A short account of an exchange's outcome: "HTTP 404 Not Found" or the failure. */
export function describeResult(result: SendResult): string {
  if (!result.ok) return result.message.startsWith(`${result.step}:`) ? result.message : `${result.step}: ${result.message}`;
  return `HTTP ${result.response.status}${result.response.statusText ? ` ${result.response.statusText}` : ""}`;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The absolute target of a redirect answer, or undefined when it is none (or unusable). */
export function redirectTarget(response: OAuthResponse, base: string): string | undefined {
  if (!REDIRECTS.has(response.status)) return undefined;
  const location = header(response, "location");
  if (location === undefined) return undefined;
  try {
    return new URL(location, base).href;
  } catch {
    return undefined;
  }
}
