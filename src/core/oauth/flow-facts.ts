/**
 * What the OAuth flow is set up with and what it has learned, and what follows from them alone:
 * the next step to run, and the scopes to ask for.
 */
import { selectScopes, stepUpScopes } from "./authorization.ts";
import type { ClientChoice, ClientIdentity } from "./client.ts";
import type { AuthServerMetadata, ResourceMetadata } from "./metadata.ts";
import type { StepId } from "./step-run.ts";
import type { Tokens } from "./token.ts";
import { scopeList, type Challenge } from "./www-authenticate.ts";

export interface FlowSettings {
  readonly serverUrl: string;
  /** Where the authorization server sends the browser back (the backend's /oauth/callback). */
  readonly redirectUri: string;
  readonly client: ClientChoice;
  /** Scopes typed by the user (space-separated); when given they replace the chosen ones. */
  readonly scopes?: string;
}

/** What the flow has learned so far. */
export interface FlowFacts {
  readonly probed: boolean;
  readonly challenge?: Challenge;
  readonly resource?: ResourceMetadata;
  readonly issuer?: string;
  readonly as?: AuthServerMetadata;
  readonly client?: ClientIdentity;
  /** An authorization waiting for its redirect. */
  readonly pending?: { readonly url: string; readonly state: string; readonly verifier: string; readonly scopes: readonly string[] };
  readonly tokens?: Tokens;
  /** The MCP request with the current token succeeded. */
  readonly verified: boolean;
  /** Scopes a 403 asked for, to be added on the next authorization. */
  readonly stepUp?: readonly string[];
}

export type NextStep = StepId | "await-redirect" | "done";

export function nextStepOf(f: FlowFacts): NextStep {
  if (!f.probed) return "probe";
  if (f.issuer === undefined) return "resource-metadata";
  if (f.as === undefined) return "auth-server-metadata";
  if (f.client === undefined) return "registration";
  if (f.pending !== undefined) return "await-redirect";
  if (f.tokens === undefined) return "authorization";
  if (!f.verified) return "mcp-retry";
  return "done";
}

/** The scopes to ask for: typed ones, else the MCP selection rule; plus what a 403 asked for. */
export function scopesFor(settings: FlowSettings, facts: FlowFacts): { scopes: string[]; from: string } {
  const typed = scopeList(settings.scopes);
  const base = typed.length > 0 ? { scopes: typed, from: "the scopes typed in the settings" } : selectScopes(facts.challenge?.params.scope, facts.resource?.scopesSupported);
  const extra = facts.stepUp;
  return extra && extra.length > 0 ? { scopes: stepUpScopes(base.scopes, extra.join(" ")), from: `${base.from}, plus ${extra.join(" ")} a 403 asked for` } : base;
}
