/**
 * The OAuth flow's sender from the page: each request goes out through the backend's
 * POST /api/oauth/fetch (authorization servers rarely allow CORS), and its answer or failed step
 * comes back as the flow's SendResult. A refusal by the backend itself is a `backend` failure.
 */
import { isJsonObject } from "../json/index.ts";
import type { OAuthRequest, OAuthSend, SendResult } from "../oauth/index.ts";
import type { BackendClient } from "./backend-client.ts";

export const OAUTH_FETCH_API = "/api/oauth/fetch";

const STEPS = new Set(["refused", "dns", "tcp", "tls", "timeout", "size", "http", "backend"]);

function stringRecord(value: unknown): value is Record<string, string> {
  return isJsonObject(value) && Object.values(value).every((v) => typeof v === "string");
}

/** The backend's JSON as a SendResult, or undefined when it is not one. */
export function readSendResult(value: unknown): SendResult | undefined {
  if (!isJsonObject(value)) return undefined;
  if (value.ok === true) {
    const r = value.response;
    if (!isJsonObject(r) || typeof r.status !== "number" || typeof r.body !== "string" || !stringRecord(r.headers)) return undefined;
    return {
      ok: true,
      response: { status: r.status, statusText: typeof r.statusText === "string" ? r.statusText : "", headers: r.headers, body: r.body, ...(r.invalidUtf8 === true ? { invalidUtf8: true } : {}) },
      durationMs: typeof value.durationMs === "number" ? value.durationMs : 0,
    };
  }
  if (value.ok === false && typeof value.step === "string" && STEPS.has(value.step) && typeof value.message === "string") {
    return {
      ok: false,
      step: value.step as Extract<SendResult, { ok: false }>["step"],
      message: value.message,
      ...(typeof value.status === "number" ? { status: value.status } : {}),
      ...(stringRecord(value.headers) ? { headers: value.headers } : {}),
    };
  }
  return undefined;
}

/** `fetch` is the page's own fetch (to the backend). */
export function backendOAuthSend(backend: BackendClient, fetch: typeof globalThis.fetch): OAuthSend {
  const { baseUrl, token } = backend.connection();
  return async (request: OAuthRequest) => {
    let res: Response;
    try {
      res = await fetch(`${baseUrl}${OAUTH_FETCH_API}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ url: request.url, method: request.method, headers: request.headers, ...(request.body !== undefined ? { body: request.body } : {}) }),
      });
    } catch (error) {
      return { ok: false, step: "backend", message: `the backend is unreachable: ${(error as Error).message}` };
    }
    const text = await res.text().catch(() => "");
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { ok: false, step: "backend", message: `the backend answered HTTP ${res.status} with something that is not JSON` };
    }
    if (!res.ok) {
      const message = isJsonObject(parsed) && isJsonObject(parsed.error) && typeof parsed.error.message === "string" ? parsed.error.message : `HTTP ${res.status}`;
      return { ok: false, step: "backend", message: `the backend refused the request: ${message}` };
    }
    return readSendResult(parsed) ?? { ok: false, step: "backend", message: "the backend's answer is not the shape of a result" };
  };
}
