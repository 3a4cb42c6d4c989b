import { exchange, fetchAgentCard, type CardAttempt, type CardInterface, type ExchangeResult, type FetchedCard, type HeaderOptions } from "../../../core/a2a/index.ts";
import type { Dialect } from "../../../core/a2a/index.ts";
import type { Override, Verdict } from "../../../core/validation/types.ts";
import { keepFields } from "../../state/drafts.svelte.ts";
import { directCardNote, directNote, exchangePorts, type PortDeps, type Via } from "./a2a-ports.ts";
import { sortedJson } from "./card-facts.ts";
import { extendedCardOf, extendedCardRequest } from "./extended-card.ts";
import type { Outbound } from "./live-exchange.svelte.ts";
import { requestFormHeaders, requestHeaders, type HeaderRow } from "./request-headers.ts";

export type PathMode = "auto" | "exact";

/** One card fetch: what was tried, what was found, and with which form. */
export interface CardFetch {
  readonly attempts: readonly CardAttempt[];
  readonly found?: FetchedCard;
  readonly via: Via;
  readonly note: string | null;
  readonly key: string;
}

export type Check = "pending" | "done" | { readonly failed: string };

export interface ExtendedFetch {
  readonly way: string;
  readonly result?: ExchangeResult;
  readonly card?: Record<string, unknown>;
  readonly text?: string;
  readonly problem?: string;
  readonly note: string | null;
}

/** A card set aside to compare with another. */
export interface KeptCard {
  readonly id: number;
  readonly label: string;
  readonly json: string;
}

export interface CardDeps extends PortDeps {
  /** The validation engine (the Validate workbench's worker); `override` judges by a pack of the caller's choice. */
  readonly validate: (text: string, override?: Override) => Promise<Verdict>;
}

/** The validation pack of each dialect. */
export const PACK_OF: Readonly<Record<Dialect, string>> = { "0.1": "a2a/v0.1.0", "0.2": "a2a/v0.2", "0.3": "a2a/v0.3.0", "1.0": "a2a/v1.0" };

/**
 * The Agent Card form and what it found. Credentials live here in memory only: the draft keeps
 * the URL, the path mode, the way out and the API key's header name, never a token or key.
 */
export class CardState {
  url = $state("");
  pathMode = $state<PathMode>("auto");
  via = $state<Via>("backend");
  headerRows = $state<HeaderRow[]>([{ name: "", value: "" }]);
  bearer = $state("");
  apiKeyName = $state("X-API-Key");
  apiKeyValue = $state("");

  fetching = $state(false);
  formError = $state<string | null>(null);
  fetched = $state.raw<CardFetch | null>(null);
  validation = $state.raw<Check>("done");
  verdict = $state.raw<Verdict | null>(null);
  /** The card judged by the pack of the dialect it was read as, when the engine chose another. */
  dialectVerdict = $state.raw<Verdict | null>(null);
  extended = $state.raw<ExtendedFetch | null>(null);
  extendedBusy = $state(false);
  kept = $state.raw<readonly KeptCard[]>([]);

  readonly #key = $derived(JSON.stringify([this.url.trim(), this.pathMode, this.via, this.headerRows, this.bearer, this.apiKeyName, this.apiKeyValue]));
  readonly #deps: CardDeps;
  #kept = 0;

  constructor(deps: CardDeps) {
    this.#deps = deps;
    keepFields(this, "a2a.card", ["url", "pathMode", "via", "apiKeyName"]);
  }

  get found(): FetchedCard | undefined {
    return this.fetched?.found;
  }

  /** The result was fetched with another form than the one on show. */
  get stale(): boolean {
    return this.fetched !== null && this.fetched.key !== this.#key;
  }

  addHeader(): void {
    this.headerRows.push({ name: "", value: "" });
  }

  removeHeader(i: number): void {
    this.headerRows.splice(i, 1);
    if (this.headerRows.length === 0) this.headerRows.push({ name: "", value: "" });
  }

  /** The form's way out and headers for requests to `target`, or the form's problem. */
  outbound(read: Pick<Outbound, "dialect" | "binding" | "target">): { out: Outbound; headers: Readonly<Record<string, string>> } | string {
    const h = requestHeaders(this.headerRows, { bearer: this.bearer, apiKeyName: this.apiKeyName, apiKeyValue: this.apiKeyValue });
    if (!h.ok) return `Not sent: ${h.error}`;
    return { out: { ...read, ports: exchangePorts(this.#deps, this.via, h.secret), via: this.via }, headers: h.headers };
  }

  /** Ports with no form credentials (raw mode sends exactly what it is given). */
  rawPorts(secret: readonly string[]): Outbound["ports"] {
    return exchangePorts(this.#deps, this.via, secret);
  }

  async fetch(): Promise<void> {
    const url = this.url.trim();
    if (url === "") {
      this.formError = "give the agent's base URL or its card's URL";
      return;
    }
    const key = this.#key;
    const outbound = this.outbound({ dialect: undefined, binding: "rest" });
    if (typeof outbound === "string") {
      this.formError = outbound;
      return;
    }
    this.formError = null;
    this.fetching = true;
    this.extended = null;
    try {
      const result = await fetchAgentCard(outbound.out.ports, url, { headers: outbound.headers, exact: this.pathMode === "exact" });
      this.fetched = { ...result, via: outbound.out.via, note: result.found ? null : directCardNote(outbound.out.via, result.attempts), key };
      this.verdict = null;
      this.dialectVerdict = null;
      if (result.found) await this.#check(result.found.text, result.found.dialect.dialect);
    } finally {
      this.fetching = false;
    }
  }

  async #check(text: string, dialect: Dialect | undefined): Promise<void> {
    this.validation = "pending";
    try {
      const verdict = await this.#deps.validate(text);
      this.verdict = verdict;
      const pack = dialect ? PACK_OF[dialect] : undefined;
      if (pack && verdict.packId !== undefined && verdict.packId !== pack) this.dialectVerdict = await this.#deps.validate(text, { packId: pack });
      this.validation = "done";
    } catch (err) {
      this.validation = { failed: (err as Error).message };
    }
  }

  async fetchExtended(chosen: CardInterface | undefined, versionHeader: HeaderOptions["versionHeader"]): Promise<void> {
    const found = this.found;
    if (!found) return;
    const request = extendedCardRequest(found, chosen, { versionHeader, headers: {} });
    if (typeof request === "string") {
      this.extended = { way: "", problem: request, note: null };
      return;
    }
    const outbound = this.outbound({ dialect: request.target?.dialect, binding: request.target?.binding ?? "rest" });
    if (typeof outbound === "string") {
      this.extended = { way: request.way, problem: outbound, note: null };
      return;
    }
    this.extendedBusy = true;
    try {
      const spec = { ...request.spec, headers: { ...request.spec.headers, ...(request.target ? requestFormHeaders(outbound.headers) : outbound.headers) } };
      const result = await exchange(outbound.out.ports, spec, { dialect: request.target?.dialect, binding: request.target?.binding ?? "rest" });
      const read = extendedCardOf(result);
      this.extended = { way: request.way, result, ...read, note: directNote(outbound.out.via, result.failure) };
    } finally {
      this.extendedBusy = false;
    }
  }

  /** Sets the card (or the extended card) aside for a side-by-side comparison. */
  keep(which: "card" | "extended"): void {
    const card = which === "card" ? this.found?.card : this.extended?.card;
    if (!card) return;
    const name = typeof card.name === "string" ? card.name : "card";
    const label = `${++this.#kept}. ${name}${which === "extended" ? " (extended)" : ""} · ${this.found?.dialect.dialect ? `v${this.found.dialect.dialect}` : "?"} · ${this.found?.url ?? ""}`;
    this.kept = [...this.kept, { id: this.#kept, label, json: sortedJson(card) }];
  }

  forget(id: number): void {
    this.kept = this.kept.filter((k) => k.id !== id);
  }
}
