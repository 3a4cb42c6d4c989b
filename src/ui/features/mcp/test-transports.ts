/** Transports for the MCP workbench's unit tests; imported by tests only. */
import { manualClock, sequentialIds } from "../../../core/env/index.ts";
import { RelayTransport } from "../../../core/mcp/index.ts";
import type { fakeRelay } from "../../../core/mcp/test-relay.ts";
import type { linked } from "../../../core/mcp/test-servers.ts";
import { WireLog } from "../../../core/wire/index.ts";
import type { McpTransportHandle } from "./mcp-state.svelte.ts";

type Linked = Awaited<ReturnType<typeof linked>>;

/** An in-memory transport to a test server, with raw sends parsed and forwarded. */
export function memoryHandle(transport: Linked): McpTransportHandle {
  return Object.assign(transport, { target: "memory", sendRaw: (text: string) => transport.send(JSON.parse(text) as never) });
}

/** A RelayTransport over a relay double, logging to its own wire log. */
export function relayHandle(relay: ReturnType<typeof fakeRelay>, wireLog = new WireLog(manualClock())) {
  const transport = new RelayTransport({
    fetch: relay.fetch,
    baseUrl: "http://127.0.0.1:1",
    token: "t",
    session: { transport: "stdio", command: "srv" },
    wireLog,
    clock: manualClock(),
    ids: sequentialIds(),
  });
  return { transport, wireLog };
}
