import { BackendError, type BackendClient, type BackendStatus } from "../../core/backend/backend-client.ts";

export type BackendState =
  | { readonly kind: "checking" }
  | { readonly kind: "ok"; readonly status: BackendStatus }
  /** Not answering: stopped, or restarting. */
  | { readonly kind: "down"; readonly message: string }
  /** Answering again, but to another launch's token: it was restarted under this page. */
  | { readonly kind: "relaunched"; readonly message: string };

/** How often the status is asked while all is well, and while it is not. */
const STEADY_MS = 10_000;
const TROUBLED_MS = 2_000;

/** The token in a launch URL (`…/?token=…`), or the text itself when it already is one. */
export function tokenFromLaunch(text: string): string | null {
  const trimmed = text.trim();
  if (/^https?:\/\//i.test(trimmed)) return /[?&]token=([A-Za-z0-9_-]+)/.exec(trimmed)?.[1] ?? null;
  return /^[A-Za-z0-9_-]{20,}$/.test(trimmed) ? trimmed : null;
}

/** Polls the backend's status while something reads it, and notices a restart under the page. */
export class BackendStatusView {
  current = $state<BackendState>({ kind: "checking" });
  readonly #client: BackendClient;
  #seenUp = false;

  constructor(client: BackendClient) {
    this.#client = client;
  }

  async refresh(): Promise<void> {
    try {
      this.current = { kind: "ok", status: await this.#client.status() };
      this.#seenUp = true;
    } catch (err) {
      // A token that worked stops working only when the backend was started again: each launch makes a new one.
      if (err instanceof BackendError && err.status === 401 && this.#seenUp) {
        this.current = { kind: "relaunched", message: "the backend was restarted: this page's access token belongs to its previous launch" };
      } else {
        this.current = { kind: "down", message: (err as Error).message };
      }
    }
  }

  /**
   * Takes the new launch's URL (or token), as the terminal printed it, and carries on with it:
   * the page keeps everything it holds. Returns why it was refused, or null.
   */
  async adopt(launch: string): Promise<string | null> {
    const token = tokenFromLaunch(launch);
    if (token === null) return "paste the whole URL the terminal printed (…/?token=…)";
    const before = this.#client.connection().token;
    this.#client.useToken(token);
    await this.refresh();
    if (this.current.kind === "ok") return null;
    this.#client.useToken(before);
    const now = this.current;
    return now.kind === "down" ? `the backend does not answer: ${now.message}` : "that is not this backend's token: use the URL its latest launch printed";
  }

  /** Start polling (more often while something is wrong); returns the function that stops it. */
  poll(steadyMs = STEADY_MS, troubledMs = TROUBLED_MS): () => void {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const tick = async (): Promise<void> => {
      await this.refresh();
      if (!stopped) timer = setTimeout(() => void tick(), this.current.kind === "ok" ? steadyMs : troubledMs);
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }
}
