/**
 * The OAuth panel's state: the settings (the non-secret ones kept across a reload), one flow per
 * server URL, its steps and facts mirrored for the components, and the authorization page opened
 * in a popup or answered by a pasted redirect. Tokens and the client secret live here, in memory.
 */
import type { ClientChoice, FlowFacts, NextStep, OAuthCrypto, OAuthFlow, OAuthSend, StepRecord, TokenAuthMethod } from "../../../core/oauth/index.ts";
import { keepFields } from "../../state/drafts.svelte.ts";
import { bearerChallenge } from "../../../core/oauth/www-authenticate.ts";
import { listenForRedirects, stateOf } from "./redirect-listener.ts";

export type ClientKind = ClientChoice["kind"];

export interface OAuthDeps {
  readonly send: OAuthSend;
  readonly crypto: OAuthCrypto;
  /** Wall time, ms since the epoch. */
  readonly now: () => number;
  readonly redirectUri: string;
  /** The page's window, for the popup and the redirect messages; absent in tests. */
  readonly win?: Window;
}

const EMPTY: FlowFacts = { probed: false, verified: false };

export class OAuthState {
  open = $state(false);
  serverUrl = $state("");
  clientKind = $state<ClientKind>("auto");
  clientId = $state("");
  /** Never kept in a draft, never logged. */
  clientSecret = $state("");
  authMethod = $state<TokenAuthMethod | "">("");
  cimdUrl = $state("");
  scopes = $state("");
  /** Shows the secrets in the exchanges and the token fields. */
  reveal = $state(false);
  pasted = $state("");

  steps = $state.raw<readonly StepRecord[]>([]);
  facts = $state.raw<FlowFacts>(EMPTY);
  nextStep = $state<NextStep>("probe");
  busy = $state(false);
  /** What went wrong outside the flow's steps (a blocked popup, a step that threw). */
  error = $state<string | null>(null);
  /** Why the panel was opened or what happened on its own (a refresh after a 401). */
  notice = $state<string | null>(null);

  readonly redirectUri: string;
  readonly #deps: OAuthDeps;
  #flow: OAuthFlow | undefined;
  #stopFlow: (() => void) | undefined;
  #popup: Window | null = null;
  #authorized: readonly (() => void)[] = [];

  constructor(deps: OAuthDeps) {
    this.#deps = deps;
    this.redirectUri = deps.redirectUri;
    keepFields(this, "oauth.settings", ["clientKind", "clientId", "authMethod", "cimdUrl", "scopes"]);
  }

  /** Starts listening for redirect pages; returns the stop function. */
  listen(): () => void {
    if (!this.#deps.win) return () => {};
    return listenForRedirects(this.#deps.win, ({ url, source }) => {
      const pending = this.facts.pending;
      if (pending === undefined || this.busy) return;
      // Another tab's authorization is not ours to judge; our own popup's answer always is.
      const ours = source !== null && source === this.#popup;
      if (!ours && stateOf(url) !== pending.state) return;
      void this.#act(() => this.#flow!.completeRedirect(url));
    });
  }

  /** Called when an authorization ends with a token that the MCP server took. */
  onAuthorized(listener: () => void): () => void {
    this.#authorized = [...this.#authorized, listener];
    return () => {
      this.#authorized = this.#authorized.filter((l) => l !== listener);
    };
  }

  get client(): ClientChoice {
    switch (this.clientKind) {
      case "pre-registered":
        return { kind: "pre-registered", clientId: this.clientId, ...(this.clientSecret !== "" ? { clientSecret: this.clientSecret } : {}), ...(this.authMethod !== "" ? { authMethod: this.authMethod } : {}) };
      case "metadata-document":
        return { kind: "metadata-document", url: this.cimdUrl.trim() };
      default:
        return { kind: this.clientKind };
    }
  }

  get accessToken(): string | undefined {
    return this.facts.tokens?.accessToken;
  }

  get failure(): { readonly title: string; readonly reason: string } | undefined {
    const last = this.steps[this.steps.length - 1];
    return last?.verdict === "fail" ? { title: last.title, reason: last.reason ?? "" } : undefined;
  }

  /**
   * Opens the panel for a server; a new URL starts a new flow, the same one keeps what was learned.
   * The flow's code loads only now, so the MCP workbench does not carry it until OAuth is used.
   */
  async startFor(serverUrl: string, notice?: string): Promise<void> {
    this.open = true;
    this.notice = notice ?? null;
    this.error = null;
    if (this.#flow && this.serverUrl === serverUrl) return;
    this.serverUrl = serverUrl;
    const { OAuthFlow } = await import("../../../core/oauth/flow.ts");
    if (this.serverUrl !== serverUrl) return;
    this.#stopFlow?.();
    const { send, crypto, now } = this.#deps;
    const flow = new OAuthFlow({ send, now, randomBytes: (n) => crypto.randomBytes(n), sha256: (d) => crypto.sha256(d) }, this.#settings());
    this.#flow = flow;
    this.#stopFlow = flow.onChange(() => this.#mirror());
    this.#mirror();
  }

  /** True when this state holds a token for `serverUrl`. */
  holdsTokenFor(serverUrl: string): boolean {
    return this.#flow !== undefined && this.serverUrl === serverUrl && this.facts.tokens !== undefined;
  }

  #settings() {
    return { serverUrl: this.serverUrl, redirectUri: this.redirectUri, client: this.client, scopes: this.scopes };
  }

  #mirror(): void {
    const flow = this.#flow;
    if (!flow) return;
    this.steps = flow.steps;
    this.facts = flow.facts;
    this.nextStep = flow.nextStep;
    this.busy = flow.busy;
  }

  async #act<T>(work: () => Promise<T>): Promise<T | undefined> {
    if (!this.#flow || this.#flow.busy) return undefined;
    this.error = null;
    this.#flow.update(this.#settings());
    const wasDone = this.#flow.facts.verified;
    try {
      return await work();
    } catch (error) {
      this.error = `The step could not run: ${(error as Error).message}`;
      return undefined;
    } finally {
      this.#mirror();
      if (!wasDone && this.#flow?.facts.verified) for (const l of this.#authorized) l();
    }
  }

  next(): Promise<unknown> {
    return this.#act(() => this.#flow!.next());
  }

  runUntilUser(): Promise<unknown> {
    return this.#act(() => this.#flow!.runUntilUser());
  }

  /** Opens the authorization page in a popup; must run inside the click that asked for it. */
  openAuthorization(): void {
    const url = this.facts.pending?.url;
    if (!url || !this.#deps.win) return;
    this.#popup = this.#deps.win.open(url, "patchbay-oauth", "popup,width=560,height=720");
    this.error = this.#popup ? null : "The browser blocked the popup. Allow popups for this page, or open the link below yourself and paste the address it ends on.";
  }

  /** The redirect URL pasted by the user; kept in the box when it is refused. */
  async usePasted(): Promise<void> {
    const text = this.pasted.trim();
    if (text === "" || !this.facts.pending) return;
    await this.#act(() => this.#flow!.completeRedirect(text));
    if (!this.facts.pending) this.pasted = "";
  }

  /**
   * After the server refused our token: reads its resource metadata again; when it names another
   * authorization server, the flow starts over there (up to the authorization). True then.
   */
  async revisit(wwwAuthenticate: string | undefined): Promise<boolean> {
    const moved = (await this.#act(() => this.#flow!.revisitResource(bearerChallenge(wwwAuthenticate)))) ?? false;
    if (moved) await this.runUntilUser();
    return moved;
  }

  async refresh(why: string): Promise<boolean> {
    return (await this.#act(async () => (await this.#flow!.refresh(why)) && (await this.#flow!.verify()).kind === "ok")) ?? false;
  }

  /** A 403 named more scopes: they are asked for on the next authorization. */
  askedForScopes(scope: string | undefined, notice: string): void {
    this.#flow?.askedForScopes(scope);
    this.open = true;
    this.notice = notice;
    this.#mirror();
  }

  authorizeAgain(): Promise<unknown> {
    this.#flow?.authorizeAgain();
    this.#mirror();
    return this.next();
  }

  startOver(): void {
    this.#flow?.reset();
    this.pasted = "";
    this.error = null;
    this.notice = null;
    this.#mirror();
  }

  close(): void {
    this.open = false;
  }
}
