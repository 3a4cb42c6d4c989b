/**
 * Typed client for Patchbay's own backend API, over an injected fetch and the per-launch token.
 * The token travels only in the Authorization header, never in a URL.
 */
export interface NatsServiceStatus {
  /** managed: the backend started nats-server; external: NATS_URL given; unavailable: neither. */
  readonly mode: "managed" | "external" | "unavailable";
  readonly url?: string;
  readonly wsUrl?: string;
  readonly message?: string;
  /** External servers: the node the backend's own connection is on, and whether it is connected now. */
  readonly node?: { readonly name: string; readonly cluster?: string; readonly url: string; readonly peers: number; readonly connected: boolean };
}

export interface BackendStatus {
  readonly version: string;
  readonly workspace: string;
  readonly nats: NatsServiceStatus;
}

export interface ApiErrorBody {
  readonly error: { readonly code: string; readonly message: string };
}

export class BackendError extends Error {
  override readonly name = "BackendError";
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export interface BackendClientOptions {
  readonly fetch: typeof fetch;
  readonly token: string;
  /** Base URL of the backend; empty for same-origin. */
  readonly baseUrl?: string;
}

export class BackendClient {
  readonly #fetch: typeof fetch;
  #token: string;
  readonly #base: string;

  constructor(options: BackendClientOptions) {
    this.#fetch = options.fetch;
    this.#token = options.token;
    this.#base = options.baseUrl ?? "";
  }

  /** Speaks with a new launch's token from now on (the backend was restarted under an open page). */
  useToken(token: string): void {
    this.#token = token;
  }

  /**
   * Where and how to reach the backend directly, for transports that stream rather than call
   * (the MCP relay). `baseUrl` is empty for the page's own origin.
   */
  connection(): { readonly baseUrl: string; readonly token: string } {
    return { baseUrl: this.#base, token: this.#token };
  }

  /** Perform an API call and decode its JSON; errors become BackendError with the server's code. */
  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.#token}` };
    if (body !== undefined) headers["content-type"] = "application/json";
    let res: Response;
    try {
      res = await this.#fetch(`${this.#base}/api${path}`, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch (err) {
      throw new BackendError(0, "unreachable", `backend unreachable: ${(err as Error).message}`);
    }
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      throw new BackendError(res.status, "bad_response", `backend sent non-JSON (${res.status})`);
    }
    if (!res.ok) {
      const err = (parsed as Partial<ApiErrorBody> | undefined)?.error;
      throw new BackendError(res.status, err?.code ?? "http_error", err?.message ?? `HTTP ${res.status}`);
    }
    return parsed as T;
  }

  status(): Promise<BackendStatus> {
    return this.call<BackendStatus>("GET", "/status");
  }
}
