import { adaptConnection, connectOptions, describeConnectError } from "../connection-adapter.ts";
import type { NatsConnector } from "../port.ts";

/** Node connector over TCP (`nats://`). One transport per process: never mix with wsconnect. */
export function tcpConnector(): NatsConnector {
  return {
    async connect(options) {
      const lib = await import("@nats-io/transport-node");
      const settings = connectOptions(options, lib);
      try {
        const nc = await lib.connect(settings);
        return adaptConnection(nc, lib);
      } catch (err) {
        throw describeConnectError(err, options.servers);
      }
    },
  };
}
