import { adaptConnection, connectOptions, describeConnectError } from "../connection-adapter.ts";
import type { NatsConnector } from "../port.ts";

/**
 * Browser connector over WebSocket. The library is imported on first connect so it stays out of
 * the first-paint bundle.
 */
export function wsConnector(): NatsConnector {
  return {
    async connect(options) {
      const lib = await import("@nats-io/nats-core");
      const settings = connectOptions(options, lib);
      try {
        const nc = await lib.wsconnect(settings);
        return adaptConnection(nc, lib);
      } catch (err) {
        throw describeConnectError(err, options.servers);
      }
    },
  };
}
