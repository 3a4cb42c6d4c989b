/** An exchange as raw HTTP text for the panel, secrets masked unless revealed, long bodies cut for display. */
import { describeResult, maskExchange, type Exchange } from "../../../core/oauth/index.ts";

/** How much of a body the panel shows; the rest is counted, not lost (the flow keeps it). */
export const SHOWN_BODY_CHARS = 64 * 1024;

function shownBody(body: string): string {
  if (body.length <= SHOWN_BODY_CHARS) return body;
  return `${body.slice(0, SHOWN_BODY_CHARS)}\n… (${body.length - SHOWN_BODY_CHARS} more characters not shown)`;
}

const headerLines = (headers: Readonly<Record<string, string>>) => Object.entries(headers).map(([n, v]) => `${n}: ${v}`);

export interface ExchangeText {
  readonly summary: string;
  readonly request: string;
  readonly response: string;
  readonly failed: boolean;
}

export function exchangeText(raw: Exchange, reveal: boolean): ExchangeText {
  const e = reveal ? raw : maskExchange(raw);
  const req = e.request;
  const request = [`${req.method} ${req.url}`, ...headerLines(req.headers), ...(req.body !== undefined ? ["", shownBody(req.body)] : [])].join("\n");
  const r = e.result;
  let response: string;
  if (r.ok) {
    const res = r.response;
    const note = res.invalidUtf8 ? ["", "(the body is not valid UTF-8; shown with replacement characters)"] : [];
    response = [`HTTP ${res.status} ${res.statusText}`.trimEnd(), ...headerLines(res.headers), "", shownBody(res.body), ...note].join("\n");
  } else {
    const head = r.status !== undefined ? [`HTTP ${r.status}`, ...headerLines(r.headers ?? {}), ""] : [];
    response = [...head, `(${describeResult(r)})`].join("\n");
  }
  const path = (() => {
    try {
      const u = new URL(req.url);
      return `${u.host}${u.pathname}`;
    } catch {
      return req.url;
    }
  })();
  return { summary: `${req.method} ${path} → ${describeResult(r)}`, request, response, failed: !r.ok };
}
