/**
 * Receivers for A2A push notifications, so a push config can point at Patchbay. Each receiver
 * has its own URL under /hooks/a2a/ and its own token; the agent must send that token back
 * (`X-A2A-Notification-Token`, or `Authorization: Bearer`), as the push config told it. What
 * arrives is kept verbatim, a bounded number per receiver, for the page to read. The hook is
 * outside /api because the agent cannot know the launch token; the per-receiver token guards it.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { HttpError } from "../http/errors.ts";
import { readBody } from "../http/json-body.ts";
import type { Route } from "../http/router.ts";
import { tokenMatches } from "../http/token.ts";

export const HOOK_PREFIX = "/hooks/a2a/";
export const MAX_RECEIVERS = 32;
export const MAX_NOTIFICATIONS = 200;
export const MAX_NOTIFICATION_BYTES = 1024 * 1024;

export interface PushNotification {
  readonly seq: number;
  /** ms since epoch. */
  readonly at: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
}

interface Receiver {
  readonly id: string;
  readonly token: string;
  readonly notifications: PushNotification[];
  seq: number;
  dropped: number;
}

const SHOWN_HEADERS = ["content-type", "user-agent", "a2a-version", "x-a2a-notification-token"];

export class PushReceivers {
  readonly #receivers = new Map<string, Receiver>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  create(): { id: string; token: string; path: string } {
    if (this.#receivers.size >= MAX_RECEIVERS) {
      // The oldest goes: a console left open for days must not refuse a new one.
      const oldest = this.#receivers.keys().next().value;
      if (oldest !== undefined) this.#receivers.delete(oldest);
    }
    const id = randomBytes(9).toString("base64url");
    const token = randomBytes(18).toString("base64url");
    this.#receivers.set(id, { id, token, notifications: [], seq: 0, dropped: 0 });
    return { id, token, path: `${HOOK_PREFIX}${id}` };
  }

  delete(id: string): boolean {
    return this.#receivers.delete(id);
  }

  /** Notifications after `after` (a seq), and how many the bound dropped. */
  read(id: string, after: number): { notifications: PushNotification[]; dropped: number } | undefined {
    const r = this.#receivers.get(id);
    return r ? { notifications: r.notifications.filter((n) => n.seq > after), dropped: r.dropped } : undefined;
  }

  /** The hook: POST /hooks/a2a/<id>. Answers itself; throws HttpError for what it refuses. */
  async handle(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    const id = pathname.slice(HOOK_PREFIX.length);
    const r = this.#receivers.get(id);
    if (!r) throw new HttpError(404, "unknown_receiver", "no push receiver here (it was deleted, or Patchbay restarted)");
    if (req.method !== "POST") throw new HttpError(405, "method_not_allowed", "push notifications are POSTed", { Allow: "POST" });
    const header = req.headers["x-a2a-notification-token"];
    const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? "")?.[1];
    const sent = (Array.isArray(header) ? header[0] : header) ?? bearer;
    if (!tokenMatches(r.token, sent)) throw new HttpError(401, "bad_notification_token", "missing or wrong notification token (X-A2A-Notification-Token)");
    const body = await readBody(req, MAX_NOTIFICATION_BYTES);
    const headers: Record<string, string> = {};
    for (const name of SHOWN_HEADERS) {
      const v = req.headers[name];
      if (typeof v === "string") headers[name] = name === "x-a2a-notification-token" ? "[redacted]" : v;
    }
    r.seq++;
    r.notifications.push({ seq: r.seq, at: this.#now(), headers, text: body.toString("utf8") });
    if (r.notifications.length > MAX_NOTIFICATIONS) {
      r.notifications.shift();
      r.dropped++;
    }
    res.writeHead(204, { "Cache-Control": "no-store" });
    res.end();
  }
}

/** /api/a2a/push-receivers: make one, read what it received, delete it. */
export function pushReceiverRoutes(receivers: PushReceivers): Route[] {
  const found = (id: string | undefined) => {
    const read = receivers.read(id ?? "", 0);
    if (!read) throw new HttpError(404, "unknown_receiver", `no push receiver ${JSON.stringify(id)}`);
  };
  return [
    { method: "POST", path: "/api/a2a/push-receivers", safe: false, handler: async () => ({ status: 201, body: receivers.create() }) },
    {
      method: "GET",
      path: "/api/a2a/push-receivers/:id",
      safe: true,
      handler: async (req) => {
        const after = Number(req.query?.get("after") ?? "0");
        const read = receivers.read(req.params.id ?? "", Number.isFinite(after) ? after : 0);
        if (!read) throw new HttpError(404, "unknown_receiver", `no push receiver ${JSON.stringify(req.params.id)}`);
        return { status: 200, body: read };
      },
    },
    {
      method: "DELETE",
      path: "/api/a2a/push-receivers/:id",
      safe: false,
      handler: async (req) => {
        found(req.params.id);
        receivers.delete(req.params.id ?? "");
        return { status: 204 };
      },
    },
  ];
}
