import { request as httpRequest } from "node:http";

/** One NDJSON event of the backend relay's session stream, loosely typed for assertions. */
export type RelayEv = {
  type: string;
  text?: string;
  step?: string;
  status?: number;
  body?: string;
  message?: string;
  headers?: Record<string, string>;
  reason?: string;
  code?: number;
  at?: number;
  requestIds?: (string | number)[];
};

export interface RelayStream {
  /** Filled as lines arrive. */
  readonly events: RelayEv[];
  readonly ended: Promise<void>;
  readonly status: number;
  readonly type: string | undefined;
}

/** Opens a relay session's event stream with a raw HTTP request, so a test sees every line. */
export function openRelayStream(port: number, auth: Record<string, string>, id: string): Promise<RelayStream> {
  return new Promise((resolve, reject) => {
    const r = httpRequest({ host: "127.0.0.1", port, method: "POST", path: `/api/mcp/sessions/${id}/stream`, headers: auth, agent: false }, (res) => {
      const events: RelayEv[] = [];
      let partial = "";
      const ended = new Promise<void>((done) => res.on("end", done));
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        const lines = (partial + chunk).split("\n");
        partial = lines.pop() ?? "";
        for (const line of lines) events.push(JSON.parse(line) as RelayEv);
      });
      resolve({ events, ended, status: res.statusCode ?? 0, type: res.headers["content-type"] });
    });
    r.on("error", reject);
    r.end();
  });
}

/** Polls until `probe` gives a value; on timeout the error quotes the events seen so far. */
export async function waitFor<T>(probe: () => T | undefined, what: string, events: unknown[] = [], ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const got = probe();
    if (got !== undefined) return got;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; events: ${JSON.stringify(events).slice(0, 3000)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
