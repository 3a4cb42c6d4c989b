/**
 * Where the OAuth panel meets the MCP workbench, from outside it: the token goes into the
 * connection form's bearer field and the workbench connects; a 401 to a connection or a call
 * made with that token refreshes it (or says why not), reconnects and sends the call once more;
 * a 403 insufficient_scope asks for the scopes it names on the next authorization.
 */
import { bearerChallenge } from "../../../core/oauth/www-authenticate.ts";
import type { ConsoleLine, McpWorkbenchState } from "../mcp/mcp-state.svelte.ts";
import type { OAuthState } from "./oauth-state.svelte.ts";

/** The WWW-Authenticate of the last HTTP answer with this status in the workbench's console. */
export function challengeIn(lines: readonly ConsoleLine[], status: number): string | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (line.type === "http" && line.status === status) return line.headers["www-authenticate"];
  }
  return undefined;
}

export class McpOAuthBridge {
  readonly #bench: McpWorkbenchState;
  readonly #oauth: OAuthState;
  /** The failure or outcome already acted on, so each is handled once. */
  #handled: object | null = null;
  /** The call to send again once a new token is in. */
  #retry: { tool: string; args: string } | undefined;
  /** True while the call is sent again: a 401 to it is not refreshed a second time. */
  #resending = false;

  constructor(bench: McpWorkbenchState, oauth: OAuthState) {
    this.#bench = bench;
    this.#oauth = oauth;
    oauth.onAuthorized(() => void this.useToken());
    $effect(() => {
      const failure = bench.failure;
      if (failure && failure.status === 401 && failure !== this.#handled && this.#usedOurToken(bench.form.url, bench.form.bearerToken)) {
        this.#handled = failure;
        void this.#refreshAndReconnect("the MCP server refused the token at connect (HTTP 401)");
      }
    });
    $effect(() => {
      const outcome = bench.outcome;
      if (!outcome || outcome === this.#handled || outcome.kind !== "relay-failure") return;
      const connected = bench.connectedTo;
      const auth = connected && connected.transport !== "stdio" ? connected.headers?.Authorization : undefined;
      if (!connected || connected.transport === "stdio" || !this.#usedOurToken(connected.url, auth?.replace(/^Bearer /, ""))) return;
      if (outcome.status === 401) {
        this.#handled = outcome;
        if (this.#resending) this.#refusedAgain();
        else void this.#expired();
      } else if (outcome.status === 403) {
        this.#handled = outcome;
        this.#insufficientScope();
      }
    });
  }

  #usedOurToken(url: string, token: string | undefined): boolean {
    return token !== undefined && this.#oauth.holdsTokenFor(url.trim()) && this.#oauth.accessToken === token.trim();
  }

  /** Opens the panel for the form's server, after a 401 at connect or from the form. */
  authorize(): void {
    const form = this.#bench.form;
    const failed = this.#bench.failure?.status === 401 ? challengeIn(this.#bench.consoleLines, 401) : undefined;
    void this.#oauth.startFor(form.url.trim(), failed ? `The server answered 401 with: WWW-Authenticate: ${failed}` : undefined);
  }

  /** Puts the token in the form and connects; then sends the call waiting for it, once. */
  async useToken(): Promise<void> {
    const token = this.#oauth.accessToken;
    if (token === undefined) return;
    const bench = this.#bench;
    bench.form.bearerToken = token;
    if (bench.status === "connected" || bench.status === "connecting") await bench.disconnect();
    await bench.connect();
    const retry = this.#retry;
    this.#retry = undefined;
    if (!retry || bench.status !== "connected") return;
    const index = bench.filteredTools.findIndex((t) => t.name === retry.tool);
    if (index < 0) return;
    bench.select(index);
    bench.argsDraft = retry.args;
    this.#resending = true;
    try {
      await bench.send();
    } finally {
      this.#resending = false;
    }
    const again = bench.outcome;
    if (again?.kind === "relay-failure" && again.status === 401 && again !== this.#handled) {
      this.#handled = again;
      this.#refusedAgain();
    }
  }

  #refusedAgain(): void {
    this.#oauth.open = true;
    this.#oauth.notice = "The server refused the refreshed token as well. Authorize again.";
  }

  async #refreshAndReconnect(why: string): Promise<void> {
    const oauth = this.#oauth;
    oauth.open = true;
    oauth.notice = `${why}: reading the resource metadata again.`;
    if (await oauth.revisit(challengeIn(this.#bench.consoleLines, 401))) {
      oauth.notice = `${why}, and the server now names another authorization server: authorize there (open the authorization page).`;
      return;
    }
    oauth.notice = `${why}: refreshing the token.`;
    if (await oauth.refresh(why)) {
      oauth.notice = `${why}: refreshed the token and connected again.`;
      await this.useToken();
    } else oauth.notice = `${why}, and the refresh failed (see the steps). Authorize again to go on.`;
  }

  /** A call with our token got 401: refresh, reconnect and send it once more (never twice in a row). */
  async #expired(): Promise<void> {
    const bench = this.#bench;
    if (bench.selectedName !== null) this.#retry = { tool: bench.selectedName, args: bench.argsDraft };
    await this.#refreshAndReconnect("The MCP server answered the call with 401");
  }

  #insufficientScope(): void {
    const bench = this.#bench;
    const challenge = bearerChallenge(challengeIn(bench.consoleLines, 403));
    if (bench.selectedName !== null) this.#retry = { tool: bench.selectedName, args: bench.argsDraft };
    const scope = challenge?.params.scope;
    this.#oauth.askedForScopes(scope, `The server answered the call with 403 ${challenge?.params.error ?? ""}${scope ? `, asking for scope ${scope}` : ""}. Authorize again to get it; the call is sent again afterwards.`);
  }
}
