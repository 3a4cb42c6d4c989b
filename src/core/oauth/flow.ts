/**
 * The OAuth flow for one MCP server, step by step: request without a token → protected-resource
 * metadata → authorization-server metadata → client registration → PKCE authorization (finished
 * by the redirect, from a popup or pasted) → token → the MCP request with the token; then
 * refresh and step-up. Every step is recorded with its raw exchanges and verdict; a failed step
 * names its reason and runs again on the next `next()`. Tokens live in this object only.
 */
import { authorizationUrl, readRedirect } from "./authorization.ts";
import { mcpRetryStep, registrationStep, tokenStep, type RetryOutcome, type TokenContext } from "./client-steps.ts";
import { authServerStep, probeStep, resourceMetadataStep } from "./discovery-steps.ts";
import { canonicalResource } from "./discovery-urls.ts";
import { nextStepOf, scopesFor, type FlowFacts, type FlowSettings, type NextStep } from "./flow-facts.ts";
import { challengeS256, createState, createVerifier } from "./pkce.ts";
import { StepRun, type OAuthWorld, type StepId, type StepRecord } from "./step-run.ts";
import { isExpired } from "./token.ts";
import { scopeList, type Challenge } from "./www-authenticate.ts";

export type { FlowFacts, FlowSettings, NextStep } from "./flow-facts.ts";

export class OAuthFlow {
  readonly #world: OAuthWorld;
  readonly #listeners = new Set<() => void>();
  #settings: FlowSettings;
  #facts: FlowFacts = { probed: false, verified: false };
  #steps: readonly StepRecord[] = [];
  #busy = false;
  /** The authorization step's record while it waits for its redirect; each answer is told on it. */
  #authorizing: StepRun | undefined;

  constructor(world: OAuthWorld, settings: FlowSettings) {
    this.#world = world;
    this.#settings = settings;
  }

  get settings(): FlowSettings {
    return this.#settings;
  }
  get facts(): FlowFacts {
    return this.#facts;
  }
  get steps(): readonly StepRecord[] {
    return this.#steps;
  }
  get busy(): boolean {
    return this.#busy;
  }
  /** The step that failed last, with its reason, while it has not run again with success. */
  get failure(): { readonly step: StepId; readonly title: string; readonly reason: string } | undefined {
    const last = this.#steps[this.#steps.length - 1];
    return last?.verdict === "fail" ? { step: last.id, title: last.title, reason: last.reason ?? "" } : undefined;
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
  #changed(): void {
    for (const l of this.#listeners) l();
  }

  /** New settings; a different server starts over, a different client choice registers again. */
  update(settings: FlowSettings): void {
    const old = this.#settings;
    this.#settings = settings;
    if (old.serverUrl !== settings.serverUrl) {
      this.#facts = { probed: false, verified: false };
      this.#authorizing = undefined;
    } else if (JSON.stringify(old.client) !== JSON.stringify(settings.client) && !this.#facts.tokens) {
      const { client: _c, pending: _p, ...rest } = this.#facts;
      this.#facts = rest;
      this.#authorizing = undefined;
    }
    this.#changed();
  }

  /** Forget everything learned and recorded (tokens included). */
  reset(): void {
    this.#facts = { probed: false, verified: false };
    this.#authorizing = undefined;
    this.#steps = [];
    this.#changed();
  }

  get nextStep(): NextStep {
    return nextStepOf(this.#facts);
  }

  /** Runs a step body on a new record, or on `resume`'s record again (the authorization awaiting its redirect). */
  async #run<T>(id: StepId, body: (run: StepRun) => Promise<T>, resume?: StepRun): Promise<T> {
    if (this.#busy) throw new Error("the OAuth flow is already running a step");
    this.#busy = true;
    const run: StepRun =
      resume ??
      new StepRun(this.#world, this.#steps.length + 1, id, () => {
        // A new array on every change, so observers holding the old one see that it changed.
        this.#steps = this.#steps.map((r) => (r.n === run.record.n ? run.record : r));
        this.#changed();
      });
    if (resume) resume.resume();
    else this.#steps = [...this.#steps, run.record];
    this.#changed();
    try {
      return await body(run);
    } catch (error) {
      run.fail(`unexpected: ${(error as Error).message}`);
      throw error;
    } finally {
      this.#busy = false;
      this.#changed();
    }
  }

  #set(patch: Partial<FlowFacts>): void {
    this.#facts = { ...this.#facts, ...patch };
  }

  /** Runs the next step; returns what comes after it. */
  async next(): Promise<NextStep> {
    const step = this.nextStep;
    const s = this.#settings;
    const f = this.#facts;
    switch (step) {
      case "probe":
        await this.#run("probe", async (run) => {
          const got = await probeStep(run, s.serverUrl);
          if (got) this.#set({ probed: true, ...(got.challenge ? { challenge: got.challenge } : {}) });
        });
        break;
      case "resource-metadata":
        await this.#run("resource-metadata", async (run) => {
          const got = await resourceMetadataStep(run, s.serverUrl, f.challenge);
          if (got) this.#set({ issuer: got.issuer, ...("resource" in got ? { resource: got.resource } : {}) });
        });
        break;
      case "auth-server-metadata":
        await this.#run("auth-server-metadata", async (run) => {
          // Without resource metadata (a 2025-03-26 server) the default endpoints are the last resort.
          const as = await authServerStep(run, f.issuer!, f.resource === undefined);
          if (as) this.#set({ as });
        });
        break;
      case "registration":
        await this.#run("registration", async (run) => {
          const client = await registrationStep(run, s.client, f.as!, s.redirectUri, this.#scopes().scopes.join(" ") || undefined);
          if (client) this.#set({ client });
        });
        break;
      case "authorization":
        await this.#prepareAuthorization();
        break;
      case "mcp-retry":
        await this.verify();
        break;
      case "await-redirect":
      case "done":
        break;
    }
    return this.nextStep;
  }

  /** Runs steps until one fails, the user is needed (the redirect), or all are done. */
  async runUntilUser(): Promise<NextStep> {
    for (;;) {
      const before = this.#steps.length;
      const next = await this.next();
      if (next === "await-redirect" || next === "done" || this.failure !== undefined || this.#steps.length === before) return next;
    }
  }

  #scopes(): { scopes: string[]; from: string } {
    return scopesFor(this.#settings, this.#facts);
  }

  /** The resource indicator: the metadata's resource exactly as published, else the server URL. */
  #resource(): string {
    return this.#facts.resource?.resource ?? canonicalResource(this.#settings.serverUrl);
  }

  async #prepareAuthorization(): Promise<void> {
    await this.#run("authorization", async (run) => {
      this.#authorizing = run;
      const { as, client } = this.#facts;
      const chosen = this.#scopes();
      run.note("ok", chosen.scopes.length > 0 ? `scope ${chosen.scopes.join(" ")} (from ${chosen.from})` : `no scope: ${chosen.from}`);
      const verifier = createVerifier(this.#world);
      const state = createState(this.#world);
      const url = authorizationUrl({
        endpoint: as!.authorizationEndpoint,
        clientId: client!.clientId,
        redirectUri: this.#settings.redirectUri,
        codeChallenge: await challengeS256(verifier, this.#world),
        state,
        resource: this.#resource(),
        scopes: chosen.scopes,
      });
      run.note("ok", `PKCE S256 challenge, a fresh state, resource ${this.#resource()}`);
      run.browser({ url });
      this.#set({ pending: { url, state, verifier, scopes: chosen.scopes } });
      run.wait();
    });
  }

  /**
   * The redirect (from the callback page or pasted). A wrong or missing state, or a wrong iss, is
   * refused and nothing is exchanged: the authorization stays open for the right answer. An error
   * the server named ends this authorization; a code goes on to the token and the MCP request.
   */
  async completeRedirect(redirectUrl: string): Promise<NextStep> {
    const { pending, as, client } = this.#facts;
    if (pending === undefined || as === undefined || client === undefined) throw new Error("no authorization is waiting for a redirect");
    let code: string | undefined;
    await this.#run(
      "authorization",
      async (run) => {
      run.browser({ url: pending.url, redirect: redirectUrl.trim() });
      const read = readRedirect(redirectUrl, { state: pending.state, redirectUri: this.#settings.redirectUri, issuer: as.issuer, issRequired: as.issParameter });
      if (read.kind === "refused") {
        run.note("fail", read.reason);
        return run.fail(read.reason);
      }
      if (read.kind === "error") {
        this.#set({ pending: undefined });
        this.#authorizing = undefined;
        run.note("fail", read.reason);
        return run.fail(read.reason);
      }
      for (const n of read.notes) run.note("warn", n);
      run.note("ok", "state matches; an authorization code came back");
      run.pass();
      code = read.code;
      },
      this.#authorizing,
    );
    if (code === undefined) return this.nextStep;
    this.#set({ pending: undefined });
    this.#authorizing = undefined;
    const tokens = await this.#run("token", (run) =>
      tokenStep(run, this.#tokenContext(), { type: "authorization_code", code: code!, redirectUri: this.#settings.redirectUri, verifier: pending.verifier }, pending.scopes),
    );
    if (tokens === undefined) return this.nextStep;
    this.#set({ tokens, verified: false, stepUp: undefined });
    await this.verify();
    return this.nextStep;
  }

  #tokenContext(): TokenContext {
    return { as: this.#facts.as!, client: this.#facts.client!, resource: this.#resource(), now: () => this.#world.now() };
  }

  /** The MCP request with the current token; a 403 asking for scopes is kept for the next authorization. */
  async verify(): Promise<RetryOutcome> {
    const tokens = this.#facts.tokens;
    if (tokens === undefined) throw new Error("there is no token to try");
    const outcome = await this.#run("mcp-retry", (run) => mcpRetryStep(run, this.#settings.serverUrl, tokens));
    this.#set({ verified: outcome.kind === "ok" });
    if (outcome.kind === "insufficient-scope") this.askedForScopes(outcome.challenge?.params.scope);
    return outcome;
  }

  /**
   * A challenge met later than the first request (a server that lets initialize through and
   * asks for a token on the next request): discovery and scope selection use it.
   */
  challengeSeen(challenge: Challenge | undefined): void {
    if (challenge === undefined || this.#facts.challenge !== undefined) return;
    this.#set({ challenge });
    this.#changed();
  }

  /**
   * After the server refused a token: reads the protected-resource metadata again (from the new
   * challenge's resource_metadata when there is one). When it names another authorization server,
   * everything learned from the old one is dropped, so the client registers and authorizes anew
   * there and never takes the old server's credentials to it. True when the server changed.
   */
  async revisitResource(challenge: Challenge | undefined): Promise<boolean> {
    const before = this.#facts.issuer;
    let moved = false;
    await this.#run("resource-metadata", async (run) => {
      run.note("ok", "the server refused the token: is the authorization server still the same?");
      const got = await resourceMetadataStep(run, this.#settings.serverUrl, challenge ?? this.#facts.challenge);
      if (!got || got.issuer === before) return;
      moved = true;
      run.note("warn", `the authorization server changed from ${before ?? "(none)"} to ${got.issuer}: registering and authorizing there anew`);
      this.#facts = { probed: true, verified: false, issuer: got.issuer, ...("resource" in got ? { resource: got.resource } : {}), ...(challenge ? { challenge } : {}) };
      this.#authorizing = undefined;
    });
    return moved;
  }

  /** A 403 insufficient_scope named more scopes: the next authorization asks for them too. */
  askedForScopes(scope: string | undefined): void {
    const more = scopeList(scope);
    if (more.length > 0) this.#set({ stepUp: more });
    this.#changed();
  }

  /** Refreshes the access token; false (with the step's reason) when there is nothing to refresh with or the server refused. */
  async refresh(why: string): Promise<boolean> {
    const { tokens, as, client } = this.#facts;
    const fresh = await this.#run("refresh", async (run) => {
      run.note("ok", why);
      if (!tokens || !as || !client) return void run.fail("there is no token to refresh; authorize first");
      if (tokens.refreshToken === undefined) return void run.fail("the server gave no refresh token; authorize again");
      return tokenStep(run, this.#tokenContext(), { type: "refresh_token", refreshToken: tokens.refreshToken }, tokens.scopes, tokens);
    });
    if (fresh === undefined) return false;
    this.#set({ tokens: fresh, verified: false });
    return true;
  }

  /** Refreshes when the access token has expired (or is within `marginMs` of it); true when the token is usable. */
  async ensureFresh(marginMs = 5_000): Promise<boolean> {
    const tokens = this.#facts.tokens;
    if (tokens === undefined) return false;
    if (!isExpired(tokens, this.#world.now(), marginMs)) return true;
    return this.refresh("the access token has expired");
  }

  /** Drops the tokens and any pending authorization, so the next step authorizes again. */
  authorizeAgain(): void {
    this.#set({ tokens: undefined, pending: undefined, verified: false });
    this.#authorizing = undefined;
    this.#changed();
  }
}
