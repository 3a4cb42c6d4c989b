import type { AgentInfo, AgentListing, AgentSummary, DiscoveryResult } from "../../../core/fisk/client/index.ts";
import type { AgentCard } from "../../../core/fisk/codec/index.ts";
import { NAME_RE } from "../../../core/packs/fisk-ai/protocol.ts";
import type { Verdict } from "../../../core/validation/types.ts";
import { compareCards, type CompareRow } from "./card-view.ts";
import { NOT_CONNECTED, type FiskSource } from "./fisk-api.ts";

/** One discovered agent: the exchange as it happened and the engine's verdict on the reply. */
export interface AgentEntry {
  readonly identity: string;
  readonly result: DiscoveryResult;
  readonly verdict: Verdict | null;
  /** Set while the worker checks the reply, or when it could not. */
  readonly validation: "pending" | "done" | { readonly failed: string };
}

export function cardOf(entry: AgentEntry | undefined): AgentCard | null {
  return entry?.result.outcome.kind === "card" ? entry.result.outcome.card : null;
}

export function identityProblem(identity: string): string | null {
  if (identity === "") return "type an agent identity to discover";
  return NAME_RE.test(identity) ? null : `agent identity ${JSON.stringify(identity)} is not valid: use letters, digits, '-' and '_' only`;
}

/** Why an agent is taken to be gone: what said so, and what to do about it. */
export interface Gone {
  readonly reason: string;
}

/** What is known of the endpoints an agent serves, and from where. */
export interface Endpoints {
  readonly names: readonly string[];
  /** "$SRV.INFO.<identity>", or the listing that named them. */
  readonly source: string;
}

/** The Agents panel: live listing, discovery by name, the selected card, and a comparison. */
export class AgentsState {
  listing = $state.raw<AgentListing | null>(null);
  finding = $state(false);
  findError = $state<string | null>(null);

  discoverName = $state("");
  discoverError = $state<string | null>(null);
  /** The typed name the error was about: typing another hides it. */
  #discoverErrorFor = $state("");
  pending = $state.raw<readonly string[]>([]);
  agents = $state.raw<readonly AgentEntry[]>([]);
  selected = $state<string | null>(null);

  compareLeft = $state("");
  compareRight = $state("");
  /** Agents that stopped answering, by identity: their cards stay, marked, without Call buttons. */
  gone = $state.raw<Readonly<Record<string, Gone>>>({});
  /** Endpoints an agent's micro service named, by identity. */
  endpoints = $state.raw<Readonly<Record<string, Endpoints>>>({});

  readonly selectedEntry = $derived(this.agents.find((a) => a.identity === this.selected));
  /** Identities whose discovery returned a card. */
  readonly withCards = $derived(this.agents.filter((a) => cardOf(a) !== null).map((a) => a.identity));
  /** The two cards being compared, when two different agents with cards are chosen. */
  readonly comparedCards: { left: AgentCard; right: AgentCard } | null = $derived.by(() => {
    const left = cardOf(this.agents.find((a) => a.identity === this.compareLeft));
    const right = cardOf(this.agents.find((a) => a.identity === this.compareRight));
    return left && right && this.compareLeft !== this.compareRight ? { left, right } : null;
  });
  readonly comparison: CompareRow[] | null = $derived(this.comparedCards ? compareCards(this.comparedCards.left, this.comparedCards.right) : null);

  /** The discovery error, while the name it was about is still the one typed. */
  get shownDiscoverError(): string | null {
    return this.discoverName === this.#discoverErrorFor ? this.discoverError : null;
  }

  readonly #source: FiskSource;

  constructor(source: FiskSource) {
    this.#source = source;
  }

  async find(): Promise<void> {
    const client = this.#source.client();
    if (!client) {
      this.findError = NOT_CONNECTED;
      return;
    }
    this.finding = true;
    this.findError = null;
    try {
      const listing = await client.listAgents();
      this.listing = listing;
      this.#learnListing(listing);
    } catch (err) {
      this.findError = `Listing agents failed: ${(err as Error).message}`;
    } finally {
      this.finding = false;
    }
  }

  /** Discovers `identity` (or the typed name); the entry replaces any earlier one for it. */
  async discover(identity = this.discoverName.trim()): Promise<void> {
    const problem = identityProblem(identity);
    const client = this.#source.client();
    this.discoverError = problem ?? (client ? null : NOT_CONNECTED);
    this.#discoverErrorFor = this.discoverName;
    if (problem || !client || this.pending.includes(identity)) return;
    // Pending while the request is out, not while its reply is checked: a Rediscover clicked
    // during a slow check is a new question, and #validate keeps only the newest reply's verdict.
    this.pending = [...this.pending, identity];
    let result: DiscoveryResult;
    try {
      result = await client.discover(identity);
    } catch (err) {
      this.discoverError = `Discovering ${identity} failed: ${(err as Error).message}`;
      this.#discoverErrorFor = this.discoverName;
      return;
    } finally {
      this.pending = this.pending.filter((p) => p !== identity);
    }
    const given = "verdict" in result.outcome ? result.outcome.verdict : undefined;
    const needsCheck = !given && result.replyText !== undefined;
    this.#put({ identity, result, verdict: given ?? null, validation: needsCheck ? "pending" : "done" });
    if (result.outcome.kind === "card") this.#clearGone(identity);
    else if (result.outcome.kind === "no-such-agent") this.markGone(identity, `discovery got no responders (503) on ${result.subject}`);
    this.selected = identity;
    if (needsCheck) await this.#validate(identity, result);
  }

  async #validate(identity: string, result: DiscoveryResult): Promise<void> {
    let verdict: Verdict | null = null;
    let validation: AgentEntry["validation"] = "done";
    try {
      verdict = await this.#source.validate(result.replyText ?? "");
    } catch (err) {
      validation = { failed: (err as Error).message };
    }
    // A newer discovery of the same agent may have landed meanwhile; it keeps its own verdict.
    const now = this.agents.find((a) => a.identity === identity);
    if (now?.result === result) this.#put({ ...now, verdict, validation });
  }

  #put(entry: AgentEntry): void {
    const at = this.agents.findIndex((a) => a.identity === entry.identity);
    this.agents = at < 0 ? [...this.agents, entry] : this.agents.map((a, i) => (i === at ? entry : a));
    if (this.compareLeft === "") this.compareLeft = entry.identity;
    else if (this.compareRight === "" && this.compareLeft !== entry.identity) this.compareRight = entry.identity;
  }

  /** Marks an agent gone: its card stays for reference, its Call buttons go until it is rediscovered. */
  markGone(identity: string, reason: string): void {
    if (this.agents.some((a) => a.identity === identity) || this.listing?.agents.some((a) => a.identity === identity)) {
      this.gone = { ...this.gone, [identity]: { reason } };
    }
  }

  #clearGone(identity: string): void {
    if (!(identity in this.gone)) return;
    const { [identity]: _dropped, ...rest } = this.gone;
    this.gone = rest;
  }

  /** A listing names every live agent: discovered agents missing from it are gone, listed ones are back. */
  #learnListing(listing: AgentListing): void {
    const endpoints: Record<string, Endpoints> = { ...this.endpoints };
    // The first instance listed speaks for the identity; a plain record, not reactive state.
    const listed: Record<string, AgentSummary> = {};
    for (const a of listing.agents) listed[a.identity] ??= a;
    for (const a of Object.values(listed)) endpoints[a.identity] = { names: a.endpoints.map((e) => e.name), source: "$SRV.INFO (Find agents)" };
    this.endpoints = endpoints;
    if (listing.error !== undefined) return;
    for (const a of this.agents) {
      if (a.identity in listed) this.#clearGone(a.identity);
      else this.markGone(a.identity, "not among the live agents $SRV.INFO listed");
    }
  }

  /** Asks the agent's micro service which endpoints it serves; kept for the Tasks tab. */
  async learnEndpoints(identity: string, timeoutMs = 1500): Promise<AgentInfo | null> {
    const client = this.#source.client();
    if (!client || identityProblem(identity)) return null;
    const info = await client.agentInfo(identity, { timeoutMs });
    if (info.kind === "info") this.endpoints = { ...this.endpoints, [identity]: { names: info.agent.endpoints.map((e) => e.name), source: info.subject } };
    return info;
  }

  select(identity: string): void {
    this.selected = identity;
  }

  forget(identity: string): void {
    this.agents = this.agents.filter((a) => a.identity !== identity);
    this.#clearGone(identity);
    if (this.selected === identity) this.selected = this.agents[0]?.identity ?? null;
    if (this.compareLeft === identity) this.compareLeft = "";
    if (this.compareRight === identity) this.compareRight = "";
  }
}
