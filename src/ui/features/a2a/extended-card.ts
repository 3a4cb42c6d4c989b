import { buildRequest, type CardInterface, type ExchangeResult, type FetchedCard, type HeaderOptions, type HttpRequestSpec, type RequestTarget } from "../../../core/a2a/index.ts";
import { isJsonObject } from "../../../core/json/index.ts";
import { errorWords } from "./frame-words.ts";

/**
 * The extended card, fetched the way the card's version says: v1.0 GetExtendedAgentCard (REST
 * GET /extendedAgentCard), v0.3 agent/getAuthenticatedExtendedCard (REST GET /v1/card), v0.2
 * a plain GET of {base}/agent/authenticatedExtendedCard beside the well-known card.
 */

export interface ExtendedRequest {
  readonly spec: HttpRequestSpec;
  readonly target: RequestTarget | undefined;
  /** How it is fetched, in words. */
  readonly way: string;
}

/** The base the card was found under: the URL without its well-known path, else the origin. */
export function cardBase(cardUrl: string): string {
  const url = new URL(cardUrl);
  const path = url.pathname.replace(/\/\.well-known\/agent(-card)?\.json$/i, "");
  return path === url.pathname ? url.origin : `${url.origin}${path}`;
}

export function extendedCardRequest(found: FetchedCard, chosen: CardInterface | undefined, options: HeaderOptions): ExtendedRequest | string {
  const way = found.extended;
  if (!way) return "the card offers no extended card (v1.0: capabilities.extendedAgentCard; v0.2.1 to v0.3: supportsAuthenticatedExtendedCard)";
  if (way.kind === "get") {
    const url = `${cardBase(found.url)}${way.path}`;
    return { spec: { method: "GET", url, headers: { Accept: "application/json", ...options.headers }, streaming: false }, target: undefined, way: `GET ${url} (v0.2)` };
  }
  const fits = (i: CardInterface | undefined): i is CardInterface & { binding: NonNullable<CardInterface["binding"]> } => i !== undefined && i.binding !== undefined && i.dialect === way.dialect;
  const iface = fits(chosen) ? chosen : found.interfaces.find((i) => fits(i) && i.binding === "jsonrpc") ?? found.interfaces.find(fits);
  if (!iface || iface.binding === undefined) return `the card offers no A2A ${way.dialect} interface to ask for its extended card`;
  const target: RequestTarget = { url: iface.url, dialect: iface.dialect, binding: iface.binding, ...(iface.tenant ? { tenant: iface.tenant } : {}) };
  const spec = buildRequest(target, "extended-card", {}, options);
  const how = iface.binding === "jsonrpc" ? (way.dialect === "1.0" ? "GetExtendedAgentCard" : "agent/getAuthenticatedExtendedCard") : `${spec.method} ${spec.url}`;
  return { spec, target, way: `${how} (A2A ${way.dialect}, ${iface.bindingName})` };
}

/** The card in the answer, or why there is none. */
export function extendedCardOf(result: ExchangeResult): { card: Record<string, unknown>; text: string } | { problem: string } {
  const frame = result.frames[0];
  const event = frame?.event;
  if (event?.kind === "error") return { problem: errorWords(event.error) };
  if (result.failure) return { problem: result.failure.message };
  if (!frame || !event || !isJsonObject(event.raw)) return { problem: "the answer holds no card object" };
  return { card: event.raw, text: JSON.stringify(event.raw, null, 2) };
}
