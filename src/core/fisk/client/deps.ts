import type { Clock } from "../../env/environment.ts";
import type { Scheduler } from "../../env/scheduler.ts";
import { NatsRequestError, type NatsMessage, type NatsPort } from "../../nats/port.ts";
import type { Verdict } from "../../validation/types.ts";
import type { Identity, RandomBytes, StampContext } from "../codec/index.ts";
import { headerValue, MIN_IDLE_MS, SERVICE_ERROR, SERVICE_ERROR_CODE } from "./reply-set.ts";

/** The world the client works in; every piece is injected. */
export interface FiskClientDeps {
  /** Already wrapped with `loggedPort`, so every frame lands in the Traffic log. */
  readonly port: NatsPort;
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  /** `crypto.getRandomValues`. */
  readonly random: RandomBytes;
  readonly sender: Identity;
  /** The validation engine: checks what the client sends and what comes back. */
  readonly validate?: (text: string) => Verdict;
}

export const DEFAULT_SENDER: Identity = { name: "patchbay-console" };
/** How long a plain request (discovery, cancel, an answer, a waiting) waits for its reply. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A fresh `_INBOX.<token>`, 22 base62 characters like a NUID, from the injected randomness. */
export function freshInbox(random: RandomBytes): string {
  const bytes = random(new Uint8Array(22));
  let token = "";
  for (const b of bytes) token += BASE62[b % 62];
  return `_INBOX.${token}`;
}

export function stampContext(deps: FiskClientDeps, recipient: string, traceparent?: string): StampContext {
  return { clock: deps.clock, random: deps.random, sender: deps.sender, recipient: { name: recipient }, ...(traceparent ? { traceparent } : {}) };
}

/** Why the validator refuses a message this client is about to send, or null to send it. */
export function outgoingProblem(deps: FiskClientDeps, text: string): string | null {
  if (!deps.validate) return null;
  const verdict = deps.validate(text);
  if (verdict.status === "valid" || verdict.status === "error-response") return null;
  const issue = verdict.issues.find((i) => i.severity === "error") ?? verdict.issues[0];
  const detail = issue ? (issue.pointer ? `${issue.pointer}: ${issue.message}` : issue.message) : (verdict.evidence[0] ?? verdict.status);
  return `refused to send an invalid message (${verdict.status}): ${detail}`;
}

/** Idle bound between reply-set messages: at least three keepalive intervals unless a test says otherwise. */
export function idleBound(idleMs: number | undefined, allowShort: boolean | undefined, fallback: number): number {
  const wanted = idleMs !== undefined && Number.isFinite(idleMs) && idleMs > 0 ? idleMs : fallback;
  return allowShort ? wanted : Math.max(MIN_IDLE_MS, wanted);
}

/** A micro-service refusal: the code and text travel in headers over an empty body. */
export function microRefusal(message: NatsMessage): { code: string; description: string } | null {
  const code = headerValue(message, SERVICE_ERROR_CODE);
  return code === undefined ? null : { code, description: headerValue(message, SERVICE_ERROR) ?? "" };
}

export type PlainReply =
  | { readonly kind: "reply"; readonly message: NatsMessage }
  | { readonly kind: "refused"; readonly code: string; readonly description: string; readonly message: NatsMessage }
  | { readonly kind: "no-responders" }
  | { readonly kind: "timeout" }
  | { readonly kind: "error"; readonly message: string };

/** One request, one reply, every failure as a value. */
export async function plainRequest(port: NatsPort, subject: string, body: Uint8Array, timeoutMs: number): Promise<PlainReply> {
  try {
    const message = await port.request(subject, body, { timeoutMs });
    if (message.status?.code === 503) return { kind: "no-responders" };
    const refused = microRefusal(message);
    return refused ? { kind: "refused", ...refused, message } : { kind: "reply", message };
  } catch (err) {
    if (err instanceof NatsRequestError && err.kind === "no-responders") return { kind: "no-responders" };
    if (err instanceof NatsRequestError && err.kind === "timeout") return { kind: "timeout" };
    return { kind: "error", message: err instanceof Error ? err.message : String(err) };
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: false });
export const textOf = (data: Uint8Array): string => utf8.decode(data);
