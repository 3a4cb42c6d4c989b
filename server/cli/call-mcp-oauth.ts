/**
 * `call mcp --oauth`: the console's OAuth flow without a browser where it can be, with one where
 * it must. The authorization page is first followed without a user (servers that approve at once
 * redirect straight back); otherwise its URL is printed and a loopback listener waits for the
 * browser's redirect. The call then runs with the token; a 401 refreshes it (else authorizes
 * again) and a 403 insufficient_scope authorizes for the scopes it names, three times at most.
 * Steps go to stderr as they end; no token, code or secret is ever printed.
 */
import { OAuthFlow, type ClientChoice, type StepRecord } from "../../src/core/oauth/index.ts";
import { redirectTarget } from "../../src/core/oauth/exchange.ts";
import { bearerChallenge } from "../../src/core/oauth/www-authenticate.ts";
import { startLoopbackCallback, type LoopbackCallback } from "../oauth/loopback-callback.ts";
import { nodeOAuthWorld } from "../oauth/node-world.ts";
import type { CallDeps } from "./call-a2a.ts";
import type { CallMcpArgs, OAuthCliOptions } from "./call-mcp-args.ts";

/** New tokens (refreshes, step-ups, an authorization asked for late) per call, at most. */
export const MAX_RECOVERIES = 3;

type Once = (args: CallMcpArgs, deps: CallDeps) => Promise<number>;
type Say = (text: string) => void;

const MARK = { ok: "ok  ", warn: "ok! ", fail: "FAIL" } as const;

/** Prints each step once it has a verdict (and again if its verdict changes). */
function stepPrinter(say: Say): (steps: readonly StepRecord[]) => void {
  const printed = new Map<number, string>();
  return (steps) => {
    for (const step of steps) {
      if (step.verdict === "running" || printed.get(step.n) === step.verdict) continue;
      printed.set(step.n, step.verdict);
      if (step.verdict === "waiting") continue;
      const warns = step.notes.filter((n) => n.level === "warn").map((n) => `; ${n.text}`).join("");
      say(`${MARK[step.verdict]} ${step.n}. ${step.title}${step.reason ? `: ${step.reason}` : warns}`);
    }
  };
}

function clientOf(o: OAuthCliOptions): ClientChoice {
  if (o.clientId !== undefined) return { kind: "pre-registered", clientId: o.clientId, ...(o.clientSecret !== undefined ? { clientSecret: o.clientSecret } : {}) };
  return { kind: "auto", ...(o.metadataUrl !== undefined ? { metadataUrl: o.metadataUrl } : {}) };
}

/** Runs the flow from no token to a token; false when a step failed (already said). */
async function authorize(flow: OAuthFlow, listener: LoopbackCallback, o: OAuthCliOptions, deps: CallDeps, say: Say): Promise<boolean> {
  await flow.runUntilUser();
  if (flow.nextStep !== "await-redirect") return flow.facts.tokens !== undefined;
  const url = flow.facts.pending!.url;
  const world = nodeOAuthWorld(deps.signal);
  const page = await world.send({ method: "GET", url, headers: { accept: "text/html" } });
  const location = page.ok ? redirectTarget(page.response, url) : undefined;
  let redirect: string;
  if (location !== undefined && location.startsWith(listener.redirectUri)) {
    say("the authorization server answered at once, without a person");
    redirect = location;
  } else {
    say(`open this URL in a browser to authorize:\n  ${url}`);
    say(`waiting up to ${Math.round(o.waitMs / 1000)} s for the redirect to ${listener.redirectUri} (--oauth-wait)`);
    try {
      redirect = await listener.next(o.waitMs, deps.signal);
    } catch (error) {
      say((error as Error).message);
      return false;
    }
  }
  // The check with the new token may fail for reasons the call itself will name: a token is enough.
  await flow.completeRedirect(redirect);
  return flow.facts.tokens !== undefined;
}

/** Runs `once` with a token got by OAuth; the exit code of the last run. */
export async function runWithOAuth(args: CallMcpArgs, deps: CallDeps, once: Once): Promise<number> {
  const target = args.target;
  const o = args.oauth;
  if (target.kind !== "http" || o === undefined) return once(args, deps);
  const say: Say = (text) => deps.stderr(`call mcp: oauth: ${text}\n`);
  const listener = await startLoopbackCallback();
  const flow = new OAuthFlow(nodeOAuthWorld(deps.signal), { serverUrl: target.url, redirectUri: listener.redirectUri, client: clientOf(o), ...(o.scope !== undefined ? { scopes: o.scope } : {}) });
  const print = stepPrinter(say);
  flow.onChange(() => print(flow.steps));
  try {
    await flow.next();
    const probe = flow.steps[0]?.exchanges[0]?.result;
    // A server may let initialize through and ask for a token only later: then authorize when it asks.
    const open = probe?.ok === true && probe.response.status >= 200 && probe.response.status < 300;
    if (open) say("the server answered without a token; calling, and authorizing when it asks");
    else if (!(await authorize(flow, listener, o, deps, say))) return 1;
    for (let recoveries = 0; ; recoveries++) {
      const seen: { status?: number; www?: string } = {};
      const base = deps.fetch ?? fetch;
      const watching: typeof fetch = async (input, init) => {
        const res = await base(input, init);
        if (res.status === 401 || res.status === 403) Object.assign(seen, { status: res.status, www: res.headers.get("www-authenticate") ?? undefined });
        return res;
      };
      const token = flow.facts.tokens?.accessToken;
      const withToken: CallMcpArgs = token === undefined ? args : { ...args, target: { ...target, headers: { ...target.headers, Authorization: `Bearer ${token}` } } };
      // A refusal in the middle of a call may surface as a thrown error; it is rethrown unless retried.
      let code = 1;
      let thrown: { error: unknown } | undefined;
      try {
        code = await once(withToken, { ...deps, fetch: watching });
      } catch (error) {
        thrown = { error };
      }
      const giveUp = () => {
        if (thrown) throw thrown.error;
        return code;
      };
      if ((code === 0 && !thrown) || seen.status === undefined) return giveUp();
      if (recoveries >= MAX_RECOVERIES) {
        say(`the server still answers ${seen.status}; giving up after ${MAX_RECOVERIES} new tokens`);
        return giveUp();
      }
      const challenge = bearerChallenge(seen.www);
      if (token === undefined) {
        say(`the server asks for a token now (HTTP ${seen.status}): authorizing`);
        flow.challengeSeen(challenge);
      } else if (seen.status === 403) {
        if (challenge?.params.error !== "insufficient_scope") return giveUp();
        say(`the server wants more scope (${challenge.params.scope ?? "not named"}): authorizing again`);
        flow.askedForScopes(challenge.params.scope);
        flow.authorizeAgain();
      } else if (await flow.revisitResource(challenge)) {
        say("the authorization server changed: registering and authorizing there");
      } else if (!(await flow.refresh(`the server answered 401${challenge?.params.error ? ` ${challenge.params.error}` : ""}`))) {
        say("the refresh failed; authorizing again");
        flow.authorizeAgain();
      }
      if (flow.facts.tokens === undefined && !(await authorize(flow, listener, o, deps, say))) return 1;
    }
  } finally {
    await listener.close();
  }
}
