import { RelayTransport } from "../../../core/mcp/index.ts";
import { readLaunchToken } from "../../env/browser-env.ts";
import type { AppServices } from "../../state/services.ts";
import type { TransportFactory } from "./mcp-state.svelte.ts";

/**
 * Sessions through the backend relay, same origin as the page. BackendClient keeps its token
 * private, so the launch token is read the way main.ts reads it.
 */
export function relayFactory(services: AppServices): TransportFactory {
  const token = readLaunchToken(document, new URL(location.href), sessionStorage);
  return (session, onConsole) =>
    new RelayTransport({
      fetch: services.env.fetch,
      baseUrl: location.origin,
      token,
      session,
      wireLog: services.wireLog,
      clock: services.env.clock,
      ids: services.env.ids,
      onConsole,
    });
}
