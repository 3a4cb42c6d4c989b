import { RelayTransport } from "../../../core/mcp/index.ts";
import type { AppServices } from "../../state/services.ts";
import type { TransportFactory } from "./mcp-state.svelte.ts";

/** Sessions through the backend relay, reached the way the backend client reaches the API. */
export function relayFactory(services: AppServices): TransportFactory {
  const { baseUrl, token } = services.backend.connection();
  return (session, onConsole) =>
    new RelayTransport({
      fetch: services.env.fetch,
      baseUrl: baseUrl || location.origin,
      token,
      session,
      wireLog: services.wireLog,
      clock: services.env.clock,
      ids: services.env.ids,
      onConsole,
    });
}
