/**
 * Fetching an Agent Card: from a base URL at the well-known paths (v0.3+ first, then the older
 * agent.json), or from exactly the URL given (Foundry's `…/agentCard/v1.0`, a custom path). Each
 * attempt is kept with its status and why it did not give a card, so a miss explains itself.
 */
import { isJsonObject } from "../json/index.ts";
import { cardInterfaces, extendedCardWay, readCardDialect, type CardInterface, type DialectReading, type ExtendedCardWay } from "./card.ts";
import { CARD_PATHS } from "./dialect.ts";
import { exchange, type ExchangeLimits, type ExchangePorts, type ExchangeResult } from "./exchange.ts";

export interface CardAttempt {
  readonly url: string;
  readonly status: number;
  /** Why this URL gave no card; undefined for the one that did. */
  readonly problem?: string;
}

export interface FetchedCard {
  readonly url: string;
  /** The body exactly as it came. */
  readonly text: string;
  readonly card: Record<string, unknown>;
  readonly dialect: DialectReading;
  readonly interfaces: readonly CardInterface[];
  readonly extended: ExtendedCardWay | undefined;
  readonly headers: Readonly<Record<string, string>>;
}

export interface CardFetchResult {
  readonly attempts: readonly CardAttempt[];
  readonly found?: FetchedCard;
}

export interface CardFetchOptions {
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent as A2A-Version: an agent that speaks several versions serves the card of the one asked for (no header means 0.3). */
  readonly version?: string;
  /** Exactly this URL, no well-known fallbacks. */
  readonly exact?: boolean;
  readonly limits?: ExchangeLimits;
  readonly signal?: AbortSignal;
}

/** The URLs to try for `input`: a URL that already names a card file is tried alone. */
export function cardUrls(input: string, exact = false): string[] {
  const url = new URL(input);
  if (exact || /\.json$/i.test(url.pathname) || /\/agentCard(\/|$)/i.test(url.pathname)) return [url.toString()];
  const base = url.toString().replace(/\/+$/, "");
  return CARD_PATHS.map((p) => `${base}${p}`);
}

function attemptOf(url: string, result: ExchangeResult): CardAttempt | FetchedCard {
  if (result.failure) return { url, status: result.status, problem: result.failure.message };
  const frame = result.frames[0];
  const value = frame?.event?.raw;
  if (!frame || frame.problem !== undefined) return { url, status: result.status, problem: frame?.problem ?? "no body" };
  let card: unknown;
  try {
    card = JSON.parse(frame.text);
  } catch {
    card = value;
  }
  if (!isJsonObject(card)) return { url, status: result.status, problem: "the body is JSON but not an object" };
  const dialect = readCardDialect(card);
  return { url, text: frame.text, card, dialect, interfaces: cardInterfaces(card), extended: extendedCardWay(card, dialect.dialect), headers: result.headers };
}

/** Tries each candidate URL in turn until one answers with a JSON object. */
export async function fetchAgentCard(ports: ExchangePorts, input: string, options: CardFetchOptions = {}): Promise<CardFetchResult> {
  let urls: string[];
  try {
    urls = cardUrls(input, options.exact);
  } catch {
    return { attempts: [{ url: input, status: 0, problem: "not a URL (give http://host:port or the card's full URL)" }] };
  }
  const attempts: CardAttempt[] = [];
  for (const url of urls) {
    const spec = { method: "GET" as const, url, headers: { Accept: "application/json", ...(options.version ? { "A2A-Version": options.version } : {}), ...options.headers }, streaming: false };
    const result = await exchange(ports, spec, { dialect: undefined, binding: "rest", ...(options.limits ? { limits: options.limits } : {}), ...(options.signal ? { signal: options.signal } : {}) });
    const got = attemptOf(url, result);
    if ("card" in got) {
      attempts.push({ url, status: result.status });
      return { attempts, found: got };
    }
    attempts.push(got);
    // Only a missing card moves on to the next path; a 401 or a network failure would fail there too.
    if (result.status !== 404) break;
  }
  return { attempts };
}
