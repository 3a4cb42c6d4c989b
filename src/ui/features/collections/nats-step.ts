/**
 * The NATS request composer's request as a collection step. Steps run on the backend, which
 * speaks NATS over TCP, so a browser connected to the backend's own server over WebSocket is
 * saved with that server's TCP address; a token becomes a secret reference.
 */
import type { NatsServiceStatus } from "../../../core/backend/backend-client.ts";
import type { TargetSpec } from "../../../core/harness/index.ts";
import type { HeaderRow } from "../../../core/nats/headers.ts";
import { identifierFrom, type SavedRequestResult } from "./step-drafts.ts";

export interface NatsComposeInput {
  /** The servers field as connected: ws:// or wss:// URLs, comma-separated. */
  readonly servers: string;
  readonly authMode: string;
  readonly subject: string;
  readonly headerRows: readonly HeaderRow[];
  readonly payload: string;
  readonly readAll: boolean;
}

const sameUrl = (a: string, b: string): boolean => {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
};

/** The TCP address the backend reaches `servers` at, or why it does not know one. */
export function tcpServer(servers: string, nats: NatsServiceStatus | undefined): { server: string } | { error: string } {
  const first = servers.split(",")[0]?.trim() ?? "";
  if (/^(nats|tls):\/\//.test(first)) return { server: servers.trim() };
  if (nats?.wsUrl && nats.url && sameUrl(first, nats.wsUrl)) return { server: nats.url };
  return { error: `the step runs from the backend over TCP, and the TCP address of ${first || "this server"} is not known: save it, then set the target's "server" to its nats:// URL in the collection` };
}

export function natsStepRequest(input: NatsComposeInput, nats: NatsServiceStatus | undefined): SavedRequestResult {
  const subject = input.subject.trim();
  if (subject === "") return { ok: false, error: "give the subject first" };
  if (input.authMode !== "none" && input.authMode !== "token") return { ok: false, error: `a collection's NATS target takes a token only, not ${input.authMode} authentication` };
  const where = tcpServer(input.servers, nats);
  if ("error" in where) return { ok: false, error: where.error };
  const headers: Record<string, string> = {};
  for (const row of input.headerRows) {
    const name = row.name.trim();
    if (name === "" && row.value === "") continue;
    if (name === "") return { ok: false, error: "a header row has a value but no name" };
    if (Object.hasOwn(headers, name)) return { ok: false, error: `header "${name}" is given twice; a step sends one value per header` };
    headers[name] = row.value;
  }
  const secret = identifierFrom(`nats ${subject.split(".")[0] ?? ""} token`);
  const secrets = input.authMode === "token" ? { [secret]: { env: secret.toUpperCase(), description: "The NATS token" } } : {};
  const target: TargetSpec = { protocol: "nats", server: where.server, ...(input.authMode === "token" ? { token: `{{${secret}}}` } : {}) };
  const notes = [
    ...(where.server !== input.servers.trim() ? [`saved with the backend's TCP address ${where.server}`] : []),
    ...(input.readAll ? ["the step reads the first reply only"] : []),
    ...(input.authMode === "token" ? [`the token is saved as the secret ${secret}`] : []),
  ];
  return {
    ok: true,
    request: {
      draft: { name: subject, target, targetHint: "nats", action: { protocol: "nats", kind: "request", subject, payload: input.payload, ...(Object.keys(headers).length > 0 ? { headers } : {}) } },
      secrets,
      notes,
    },
  };
}

/** What the NATS workbench holds now, as a step; asks the backend where its NATS server listens. */
export async function natsComposeRequest(bench: NatsComposeInput, status: () => Promise<{ readonly nats: NatsServiceStatus }>): Promise<SavedRequestResult> {
  let nats: NatsServiceStatus | undefined;
  try {
    nats = (await status()).nats;
  } catch {
    // Without the status only a nats:// address given by hand can be saved; tcpServer says so.
  }
  return natsStepRequest(bench, nats);
}
