import type { NatsServeStatus } from "../../core/backend/serve-api.ts";
import type { NatsSession, NatsSessionSnapshot } from "../../core/nats/index.ts";
import type { Drafts } from "./drafts.svelte.ts";

/** The NATS connection the page had before a reload; never holds a secret. */
export const NATS_SESSION_DRAFT = "nats.session";
/** The NATS workbench's form draft, read for its auth mode only. */
const NATS_FORM_DRAFT = "nats.form";

export interface LostNatsSession {
  readonly servers: string;
  /** A password, token, seed or creds file is needed: the NATS form asks for it again. */
  readonly needsSecret: boolean;
}

/**
 * What the status bar says beyond the live states: the NATS connection a reload cut, so it comes
 * back with one click, and Serve's NATS surface running while the page itself is not connected.
 */
export class SessionNotes {
  lost = $state.raw<LostNatsSession | null>(null);
  served = $state.raw<NatsServeStatus | null>(null);
  #wasConnected = false;

  readonly #drafts: Drafts;
  readonly #session: NatsSession;

  constructor(drafts: Drafts, session: NatsSession) {
    this.#drafts = drafts;
    this.#session = session;
    const saved = drafts.read(NATS_SESSION_DRAFT);
    if (saved.kind === "ok" && typeof saved.data === "string" && session.snapshot.state !== "connected") {
      const form = drafts.read(NATS_FORM_DRAFT);
      const mode = form.kind === "ok" && typeof form.data === "object" && form.data !== null ? (form.data as { authMode?: unknown }).authMode : undefined;
      this.lost = { servers: saved.data, needsSecret: typeof mode === "string" && mode !== "none" };
    }
  }

  /** Follows the session: a connection is remembered, a deliberate close forgotten. */
  observe(snapshot: NatsSessionSnapshot): void {
    if (snapshot.state === "connected" && snapshot.servers) {
      this.#wasConnected = true;
      this.lost = null;
      this.#drafts.save(NATS_SESSION_DRAFT, snapshot.servers);
    } else if (snapshot.state === "closed" && this.#wasConnected) {
      this.#wasConnected = false;
      this.#drafts.remove(NATS_SESSION_DRAFT);
    }
  }

  /** Connects again where no secret is needed; otherwise the caller opens the NATS form. */
  async reconnect(): Promise<boolean> {
    const lost = this.lost;
    if (!lost || lost.needsSecret) return false;
    await this.#session.connect({ servers: lost.servers, name: "patchbay-console" });
    return true;
  }

  /** Words for a served NATS surface the page is not connected to, or null. */
  servedNote(pageState: NatsSessionSnapshot["state"]): string | null {
    const s = this.served;
    if (!s?.serving || pageState === "connected") return null;
    return `Serve's NATS surface is running (${s.identity} on ${s.server}); this page is not connected to NATS`;
  }
}
