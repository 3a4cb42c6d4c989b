/**
 * The URL a conformance run is pointed at: an MCP endpoint for the MCP suite, an A2A agent's card
 * or base URL for the A2A TCK. Checked the same way in the page and in the backend.
 */

export type ConformanceKind = "mcp" | "a2a";

export const CONFORMANCE_KINDS: readonly ConformanceKind[] = ["mcp", "a2a"];
export const MAX_TARGET_URL_CHARS = 2_048;

/** Where an A2A agent publishes its card, newest name first. */
const CARD_PATHS = ["/.well-known/agent-card.json", "/.well-known/agent.json"];

export type TargetCheck = { readonly ok: true; readonly url: string } | { readonly ok: false; readonly problem: string };

const EXAMPLE: Readonly<Record<ConformanceKind, string>> = {
  mcp: "http://127.0.0.1:7421/mcp",
  a2a: "http://127.0.0.1:7422 (or its /.well-known/agent-card.json)",
};

/** The URL, normalised, when it is an absolute http(s) URL; else what is wrong with it. */
export function checkTargetUrl(kind: ConformanceKind, value: unknown): TargetCheck {
  const want = `an http(s) URL such as ${EXAMPLE[kind]}`;
  if (typeof value !== "string" || value.trim() === "") return { ok: false, problem: `"url" must be ${want}` };
  const text = value.trim();
  if (text.length > MAX_TARGET_URL_CHARS) return { ok: false, problem: `"url" is ${text.length} characters long; at most ${MAX_TARGET_URL_CHARS} are accepted` };
  if (/\s/.test(text) || [...text].some((ch) => ch.charCodeAt(0) < 0x20 || ch === "\u007f")) return { ok: false, problem: `"url" must not contain spaces or control characters; expected ${want}` };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, problem: `"url" is not a URL: ${JSON.stringify(text.slice(0, 200))}; expected ${want}` };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { ok: false, problem: `"url" must use http or https, not ${url.protocol.replace(/:$/, "")}; expected ${want}` };
  }
  if (url.hostname === "") return { ok: false, problem: `"url" names no host; expected ${want}` };
  return { ok: true, url: url.href };
}

/**
 * What the TCK's runner is given for an agent: a base URL (it reads the card at the well-known
 * paths and tests the JSON-RPC endpoint the card names) or a JSON-RPC endpoint URL (any other
 * path). A card's own URL becomes its base URL; the runner reads cards only at a host's root.
 */
export function tckTarget(url: string): TargetCheck {
  const parsed = new URL(url);
  const card = CARD_PATHS.find((p) => parsed.pathname.endsWith(p));
  if (!card) return { ok: true, url };
  if (parsed.pathname !== card) {
    return { ok: false, problem: `the TCK reads an agent's card only at the root of its host (${parsed.origin}${CARD_PATHS[0]}); give the agent's JSON-RPC endpoint URL instead of ${url}` };
  }
  return { ok: true, url: `${parsed.origin}/` };
}
