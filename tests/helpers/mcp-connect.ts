/**
 * The core MCP client through the real backend relay, as the page makes it (Node's fetch plays
 * the browser's): one connection with its wire log, console events and errors, for the
 * integration tests of both eras.
 */
import { sequentialIds, systemClock } from "../../src/core/env/index.ts";
import { McpConnection, RelayTransport, type ConnectOptions, type ConnectResult, type CreateSessionBody, type RelayConsoleEvent } from "../../src/core/mcp/index.ts";
import { WireLog, type WireEntry } from "../../src/core/wire/index.ts";
import type { TestBackend } from "./http-client.ts";

const clock = systemClock(performance, Date);
const dec = new TextDecoder();

export interface Relayed {
  readonly connection: McpConnection;
  readonly info: ConnectResult;
  readonly transport: RelayTransport;
  readonly wireLog: WireLog;
  readonly consoleEvents: RelayConsoleEvent[];
  readonly errors: Error[];
  /** The frames of the log as parsed JSON (text that is not JSON left out), oldest first. */
  frames(filter?: (entry: WireEntry) => boolean): { readonly direction: string; readonly value: Record<string, unknown>; readonly entry: WireEntry }[];
  close(): Promise<void>;
}

export const CLIENT_INFO = { name: "patchbay-it", version: "0.0.0" };

export function relayTransport(backend: TestBackend, session: CreateSessionBody, wireLog: WireLog, consoleEvents: RelayConsoleEvent[]): RelayTransport {
  return new RelayTransport({
    fetch: globalThis.fetch,
    baseUrl: `http://127.0.0.1:${backend.port}`,
    token: backend.token,
    session,
    wireLog,
    clock,
    ids: sequentialIds("frame"),
    onConsole: (e) => consoleEvents.push(e),
  });
}

export async function relayed(backend: TestBackend, session: CreateSessionBody, options: Partial<ConnectOptions> = {}): Promise<Relayed> {
  const wireLog = new WireLog(clock, 10_000);
  const consoleEvents: RelayConsoleEvent[] = [];
  const errors: Error[] = [];
  const transport = relayTransport(backend, session, wireLog, consoleEvents);
  const connection = new McpConnection();
  connection.on("error", (e) => errors.push(e));
  const info = await connection.connect(transport, { clientInfo: CLIENT_INFO, timeoutMs: 20_000, ...options });
  return {
    connection,
    info,
    transport,
    wireLog,
    consoleEvents,
    errors,
    frames(filter = () => true) {
      return wireLog.entries().flatMap((entry) => {
        if (!filter(entry)) return [];
        try {
          return [{ direction: entry.direction, value: JSON.parse(dec.decode(entry.bytes)) as Record<string, unknown>, entry }];
        } catch {
          return [];
        }
      });
    },
    close: () => connection.close(),
  };
}
