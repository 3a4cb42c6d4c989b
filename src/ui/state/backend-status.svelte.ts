import type { BackendClient, BackendStatus } from "../../core/backend/backend-client.ts";

export type BackendState =
  | { readonly kind: "checking" }
  | { readonly kind: "ok"; readonly status: BackendStatus }
  | { readonly kind: "down"; readonly message: string };

/** Polls the backend's status while something reads it. */
export class BackendStatusView {
  current = $state<BackendState>({ kind: "checking" });
  readonly #client: BackendClient;

  constructor(client: BackendClient) {
    this.#client = client;
  }

  async refresh(): Promise<void> {
    try {
      this.current = { kind: "ok", status: await this.#client.status() };
    } catch (err) {
      this.current = { kind: "down", message: (err as Error).message };
    }
  }

  /** Start polling; returns the function that stops it. */
  poll(intervalMs = 10_000): () => void {
    void this.refresh();
    const timer = setInterval(() => void this.refresh(), intervalMs);
    return () => clearInterval(timer);
  }
}
