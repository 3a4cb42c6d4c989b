/**
 * A real nats-server cluster on loopback for the tests and benchmarks: three nodes (by default)
 * from the Debian binary, each on its own free client, monitoring and route ports, routed to
 * every other, WebSocket on the first only. Resolves once every node has a route to every other,
 * so a subscription on one node is soon known on the rest. A node can be taken down and brought
 * back on the same ports.
 */
import { get } from "node:http";
import { freePorts } from "../../server/nats/free-port.ts";
import { startNatsServer, type ManagedNats } from "../../server/nats/managed-nats.ts";

export interface NatsCluster {
  readonly name: string;
  readonly nodes: readonly ManagedNats[];
  /** Every node's client URL, comma-separated: what a client given "the cluster" gets. */
  readonly urls: string;
  /** The first node's WebSocket URL, the only one a browser can use. */
  readonly wsUrl: string;
  /** Waits until every node up has a route to every other node up. */
  routed(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  readonly size?: number;
  /** Browser origins allowed on the first node's WebSocket port. */
  readonly allowedOrigins?: readonly string[];
}

function json(url: string): Promise<Record<string, unknown> | null> {
  return new Promise((resolve) => {
    const req = get(url, { agent: false, timeout: 1000 }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => {
        try {
          resolve(JSON.parse(body) as Record<string, unknown>);
        } catch {
          resolve(null);
        }
      });
    });
    req.on("error", () => resolve(null));
    req.on("timeout", () => req.destroy());
  });
}

/** How many routes a node has open, from its monitoring port; -1 when it does not answer. */
export async function routeCount(node: ManagedNats): Promise<number> {
  const routez = await json(`${node.monitorUrl}/routez`);
  return typeof routez?.num_routes === "number" ? routez.num_routes : -1;
}

export async function startNatsCluster(options: ClusterOptions = {}): Promise<NatsCluster> {
  const size = options.size ?? 3;
  const name = `patchbay-test-${crypto.randomUUID().slice(0, 8)}`;
  const ports = await freePorts(4 * size);
  const at = (i: number) => ({ client: ports[4 * i]!, ws: ports[4 * i + 1]!, monitor: ports[4 * i + 2]!, cluster: ports[4 * i + 3]! });
  const started = await Promise.allSettled(
    Array.from({ length: size }, (_, i) =>
      startNatsServer({
        ports: at(i),
        serverName: `${name}-n${i + 1}`,
        websocket: i === 0,
        cluster: { name, routes: Array.from({ length: size }, (_, j) => at(j).cluster!).filter((_, j) => j !== i) },
        ...(i === 0 && options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
      }),
    ),
  );
  const nodes: ManagedNats[] = [];
  const problems: string[] = [];
  for (const r of started) {
    if (r.status === "rejected") problems.push((r.reason as Error).message);
    else if (!r.value.ok) problems.push(r.value.message);
    else nodes.push(r.value.server);
  }
  const stop = async () => void (await Promise.all(nodes.map((n) => n.stop())));
  if (problems.length > 0) {
    await stop();
    throw new Error(`the test cluster did not start: ${problems.join("; ")}`);
  }
  const cluster: NatsCluster = {
    name,
    nodes,
    urls: nodes.map((n) => n.url).join(","),
    wsUrl: nodes[0]!.wsUrl,
    async routed(timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const counts = await Promise.all(nodes.map(routeCount));
        const upCount = counts.filter((c) => c >= 0).length;
        if (counts.every((c) => c < 0 || c >= upCount - 1)) return;
        if (Date.now() > deadline) throw new Error(`the cluster's nodes did not all route to each other within ${timeoutMs} ms (routes per node: ${counts.join(", ")})`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    stop,
  };
  try {
    await cluster.routed();
  } catch (err) {
    await stop();
    throw err;
  }
  return cluster;
}

/** Retries `probe` until it returns true: interest made on one node reaches the others a moment later. */
export async function eventually(probe: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
