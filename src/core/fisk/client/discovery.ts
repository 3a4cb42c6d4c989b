import type { NatsHeaders } from "../../nats/port.ts";
import type { Verdict } from "../../validation/types.ts";
import { decodeFiskMessage, discoveryRequest, discoverySubject, encodeFiskMessage, FISK_PROTOCOLS, type AgentCard, type DiscoveryReply } from "../codec/index.ts";
import { DEFAULT_REQUEST_TIMEOUT_MS, outgoingProblem, plainRequest, stampContext, textOf, type FiskClientDeps } from "./deps.ts";

export type CardGeneration = "gen1" | "gen2" | "either";

export type DiscoveryOutcome =
  | { readonly kind: "card"; readonly card: AgentCard; readonly generation: CardGeneration; readonly evidence: readonly string[]; readonly verdict?: Verdict }
  | { readonly kind: "invalid"; readonly problem: string; readonly verdict?: Verdict }
  | { readonly kind: "refused"; readonly code: string; readonly description: string }
  | { readonly kind: "no-such-agent" }
  | { readonly kind: "timeout"; readonly timeoutMs: number }
  | { readonly kind: "error"; readonly message: string };

export interface DiscoveryResult {
  readonly identity: string;
  readonly subject: string;
  readonly requestText: string;
  readonly rttMs: number;
  readonly outcome: DiscoveryOutcome;
  readonly replyText?: string;
  readonly replyHeaders?: NatsHeaders;
}

/**
 * Which generation a card comes from, and why. The card has no generation field: Gen 2-only
 * fields prove Gen 2, a served tool without a description proves fisk-ai v0.0.1–v0.0.2 (later
 * builds drop such tools), and anything else could be either.
 */
export function cardGeneration(card: AgentCard, replyHasTraceparent = false): { generation: CardGeneration; evidence: string[] } {
  const evidence: string[] = [];
  if (replyHasTraceparent) evidence.push("the reply carries traceparent (a Gen 2 header field)");
  if (card.model !== undefined) evidence.push("the card names a model (Gen 2 only)");
  if (card.telemetry !== undefined) evidence.push("the card has telemetry (Gen 2 only)");
  if (card.telemetry_content !== undefined) evidence.push("the card has telemetry_content (Gen 2 only)");
  const withBehavior = (card.tools ?? []).filter((t) => t.behavior !== undefined).map((t) => t.name);
  if (withBehavior.length > 0) evidence.push(`tools declare behavior (Gen 2 only): ${withBehavior.join(", ")}`);
  if (evidence.length > 0) return { generation: "gen2", evidence };
  const undescribed = (card.tools ?? []).filter((t) => (t.description ?? "") === "").map((t) => t.name);
  if (undescribed.length > 0) {
    return { generation: "gen1", evidence: [`tools served without a description (only fisk-ai v0.0.1–v0.0.2 serves those): ${undescribed.join(", ")}`] };
  }
  return { generation: "either", evidence: ["nothing in the card tells Gen 1 from Gen 2: no model, telemetry or tool behavior"] };
}

function firstProblem(verdict: Verdict): string {
  const issue = verdict.issues.find((i) => i.severity === "error") ?? verdict.issues[0];
  if (issue) return issue.pointer ? `${issue.pointer}: ${issue.message}` : issue.message;
  return verdict.evidence[0] ?? `the validator found the reply ${verdict.status}`;
}

function readCard(deps: FiskClientDeps, text: string, data: Uint8Array): DiscoveryOutcome {
  const decoded = decodeFiskMessage(data);
  const verdict = deps.validate && data.length > 0 ? deps.validate(text) : undefined;
  const withVerdict = verdict ? { verdict } : {};
  if (!decoded.ok) return { kind: "invalid", problem: decoded.error.message, ...withVerdict };
  if (decoded.message.protocol !== FISK_PROTOCOLS.discoveryReply) {
    return { kind: "invalid", problem: `expected a ${FISK_PROTOCOLS.discoveryReply}, got ${decoded.message.protocol}`, ...withVerdict };
  }
  if (verdict && verdict.status !== "valid") return { kind: "invalid", problem: firstProblem(verdict), verdict };
  const reply = decoded.message as DiscoveryReply;
  if (typeof reply.name !== "string" || typeof reply.version !== "string") {
    return { kind: "invalid", problem: "the card lacks its name or version", ...withVerdict };
  }
  if (reply.tools !== undefined && !Array.isArray(reply.tools)) return { kind: "invalid", problem: "the card's tools is not an array", ...withVerdict };
  const { protocol: _p, id: _i, request: _r, conversation: _c, parent: _pa, sequence: _s, time: _t, sender: _se, recipient: _re, must_understand: _m, traceparent, ...card } = reply;
  const { generation, evidence } = cardGeneration(card, traceparent !== undefined);
  return { kind: "card", card, generation, evidence, ...withVerdict };
}

/** `discovery.request` on `choria.fisk-ai.discovery.<identity>`: a plain request, one reply. */
export async function discover(deps: FiskClientDeps, identity: string, opts: { timeoutMs?: number } = {}): Promise<DiscoveryResult> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  let subject: string;
  let requestText: string;
  try {
    subject = discoverySubject(identity);
    requestText = encodeFiskMessage(discoveryRequest(stampContext(deps, identity)));
  } catch (err) {
    return { identity, subject: "", requestText: "", rttMs: 0, outcome: { kind: "error", message: (err as Error).message } };
  }
  const base = { identity, subject, requestText };
  const problem = outgoingProblem(deps, requestText);
  if (problem) return { ...base, rttMs: 0, outcome: { kind: "error", message: problem } };
  const started = deps.clock.now();
  const reply = await plainRequest(deps.port, subject, new TextEncoder().encode(requestText), timeoutMs);
  const rttMs = deps.clock.now() - started;
  switch (reply.kind) {
    case "no-responders":
      return { ...base, rttMs, outcome: { kind: "no-such-agent" } };
    case "timeout":
      return { ...base, rttMs, outcome: { kind: "timeout", timeoutMs } };
    case "error":
      return { ...base, rttMs, outcome: { kind: "error", message: reply.message } };
    default: {
      const m = reply.message;
      const replyText = textOf(m.data);
      const seen = { replyText, ...(m.headers ? { replyHeaders: m.headers } : {}) };
      if (reply.kind === "refused") return { ...base, rttMs, ...seen, outcome: { kind: "refused", code: reply.code, description: reply.description } };
      return { ...base, rttMs, ...seen, outcome: readCard(deps, replyText, m.data) };
    }
  }
}
