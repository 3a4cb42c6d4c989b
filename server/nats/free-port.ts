import { createServer } from "node:net";

/** A port that was free a moment ago on `host`: bind port 0, read it, close. Callers retry on collision. */
export function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once("error", reject);
    probe.listen({ host, port: 0, exclusive: true }, () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => (port > 0 ? resolve(port) : reject(new Error("could not read the probe port"))));
    });
  });
}

/** `count` distinct free ports. */
export async function freePorts(count: number, host = "127.0.0.1"): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort(host));
  return [...ports];
}
