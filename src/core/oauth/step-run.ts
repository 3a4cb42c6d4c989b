/**
 * One step of the flow as it runs: its exchanges (recorded as sent and answered), its findings,
 * and its verdict, with the failing reason named.
 */
import { describeResult, redirectTarget, type Exchange, type OAuthRequest, type OAuthResponse, type OAuthSend, type SendResult } from "./exchange.ts";
import type { Finding } from "./json-answer.ts";
import type { OAuthCrypto } from "./pkce.ts";

export type StepId = "probe" | "resource-metadata" | "auth-server-metadata" | "registration" | "authorization" | "token" | "mcp-retry" | "refresh";

export const STEP_TITLES: Readonly<Record<StepId, string>> = {
  probe: "Request without a token",
  "resource-metadata": "Protected-resource metadata (RFC 9728)",
  "auth-server-metadata": "Authorization-server metadata (RFC 8414)",
  registration: "Client registration",
  authorization: "Authorization (PKCE S256)",
  token: "Token exchange",
  "mcp-retry": "MCP request with the token",
  refresh: "Token refresh",
};

/** waiting: the step needs the user (the authorization page). */
export type Verdict = "running" | "ok" | "warn" | "fail" | "waiting";

/** What the browser did for the authorization step: the page it opened, and where it came back. */
export interface BrowserLeg {
  readonly url: string;
  readonly redirect?: string;
}

export interface StepRecord {
  /** Order of the run, from 1. */
  readonly n: number;
  readonly id: StepId;
  readonly title: string;
  readonly verdict: Verdict;
  readonly exchanges: readonly Exchange[];
  readonly notes: readonly Finding[];
  readonly reason?: string;
  readonly browser?: BrowserLeg;
}

export interface OAuthWorld extends OAuthCrypto {
  readonly send: OAuthSend;
  /** Wall time, ms since the epoch. */
  now(): number;
}

export class StepRun {
  readonly #world: OAuthWorld;
  readonly #changed: () => void;
  record: StepRecord;

  constructor(world: OAuthWorld, n: number, id: StepId, changed: () => void) {
    this.#world = world;
    this.#changed = changed;
    this.record = { n, id, title: STEP_TITLES[id], verdict: "running", exchanges: [], notes: [] };
  }

  #set(patch: Partial<StepRecord>): void {
    this.record = { ...this.record, ...patch };
    this.#changed();
  }

  async send(request: OAuthRequest): Promise<SendResult> {
    const at = this.#world.now();
    const result = await this.#world.send(request);
    this.#set({ exchanges: [...this.record.exchanges, { request, result, at }] });
    return result;
  }

  /**
   * A GET that follows up to `max` redirects, each its own exchange (nothing is sent that could
   * leak: these requests carry no credentials). Ends with the last answer or failure.
   */
  async getFollowing(url: string, max = 3): Promise<{ result: SendResult; url: string }> {
    let current = url;
    for (let hop = 0; ; hop++) {
      const result = await this.send({ method: "GET", url: current, headers: { accept: "application/json" } });
      const next = result.ok ? redirectTarget(result.response, current) : undefined;
      if (next === undefined || hop >= max || !/^https?:/.test(next)) return { result, url: current };
      this.note("warn", `${current} redirected (${(result as { response: OAuthResponse }).response.status}) to ${next}; followed`);
      current = next;
    }
  }

  note(level: Finding["level"], text: string): void {
    this.#set({ notes: [...this.record.notes, { level, text }] });
  }

  notes(findings: readonly Finding[]): void {
    if (findings.length > 0) this.#set({ notes: [...this.record.notes, ...findings] });
  }

  browser(leg: BrowserLeg): void {
    this.#set({ browser: leg });
  }

  /** Ends the step: warn when any finding warned, else ok. */
  pass(): void {
    const { reason: _reason, ...rest } = this.record;
    this.record = { ...rest, verdict: this.record.notes.some((n) => n.level === "warn") ? "warn" : "ok" };
    this.#changed();
  }

  /** Runs again on the same record (the same authorization, another answer). */
  resume(): void {
    const { reason: _reason, ...rest } = this.record;
    this.record = { ...rest, verdict: "running" };
    this.#changed();
  }

  wait(): void {
    this.#set({ verdict: "waiting" });
  }

  fail(reason: string): void {
    this.#set({ verdict: "fail", reason });
  }
}

/** A failed send in words, for a step's reason. */
export function sendProblem(what: string, result: Extract<SendResult, { ok: false }>): string {
  return `${what} failed: ${describeResult(result)}`;
}
