/**
 * For an external NATS server or cluster (several NATS_URLs): the backend keeps one connection of
 * its own, to say which node it is on (at start and after every reconnect) and whether it is
 * connected now. A server it cannot reach is reported, and tried again, without stopping the
 * backend.
 */
import type { Logger } from "../../src/core/env/environment.ts";
import { tcpConnector } from "../../src/core/nats/node/tcp-connector.ts";
import type { NatsConnector, NatsNode, NatsPort } from "../../src/core/nats/port.ts";
import { redactServers } from "../../src/core/nats/server-credentials.ts";

export interface WatchedNode {
  readonly name: string;
  readonly cluster?: string;
  readonly url: string;
  /** The other nodes the server advertises. */
  readonly peers: number;
  readonly connected: boolean;
}

export interface NatsWatch {
  close(): Promise<void>;
}

/** One line for the terminal: the node, its cluster, and how many other nodes it knows of. */
export function describeNode(node: NatsNode): string {
  const cluster = node.cluster ? ` of cluster ${node.cluster}` : "";
  const peers = node.peers.length > 0 ? ` (${node.peers.length} other node(s) known)` : "";
  return `node ${node.name}${cluster} at ${redactServers(node.url)}${peers}`;
}

const asWatched = (node: NatsNode, connected: boolean): WatchedNode => ({ name: node.name, ...(node.cluster ? { cluster: node.cluster } : {}), url: redactServers(node.url), peers: node.peers.length, connected });

export interface WatchDeps {
  readonly logger: Logger;
  /** A line for the terminal (stdout). */
  readonly say: (line: string) => void;
  /** A problem, for stderr. */
  readonly complain: (line: string) => void;
  readonly onNode: (node: WatchedNode | undefined) => void;
  readonly connector?: NatsConnector;
}

export function watchNats(servers: string, deps: WatchDeps): NatsWatch {
  let port: NatsPort | undefined;
  let closed = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const connector = deps.connector ?? tcpConnector();
  const attempt = async (): Promise<void> => {
    try {
      const p = await connector.connect({ servers, name: "patchbay backend" });
      if (closed) return void (await p.close());
      port = p;
    } catch (err) {
      if (closed) return;
      deps.complain(`patchbay: cannot reach NATS yet (${(err as Error).message}); trying again every 5 s`);
      deps.onNode(undefined);
      retry = setTimeout(() => void attempt(), 5000);
      retry.unref();
      return;
    }
    const node = port.node?.();
    if (node) {
      deps.say(`NATS: on ${describeNode(node)}`);
      deps.onNode(asWatched(node, true));
    }
    port.onStatus((e) => {
      const now = port?.node?.();
      if (e.type === "disconnect" && now) {
        deps.logger.warn("NATS connection lost; reconnecting", { server: redactServers(e.server ?? now.url) });
        deps.onNode(asWatched(now, false));
      } else if (e.type === "reconnect" && now) {
        deps.say(`NATS: reconnected, on ${describeNode(now)}`);
        deps.onNode(asWatched(now, true));
      }
    });
  };
  void attempt();
  return {
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      await port?.close().catch(() => undefined);
    },
  };
}
