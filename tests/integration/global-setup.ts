import type { TestProject } from "vitest/node";
import { startNatsServer, type ManagedNats } from "../../server/nats/managed-nats.ts";

declare module "vitest" {
  export interface ProvidedContext {
    natsUrl: string;
    natsWsUrl: string;
  }
}

let server: ManagedNats | undefined;

/** One real nats-server on free loopback ports for the whole integration tier. */
export async function setup(project: TestProject): Promise<void> {
  const started = await startNatsServer();
  if (!started.ok) {
    throw new Error(`integration tests need a real nats-server and cannot run: ${started.message}`);
  }
  server = started.server;
  project.provide("natsUrl", server.url);
  project.provide("natsWsUrl", server.wsUrl);
}

export async function teardown(): Promise<void> {
  await server?.stop();
}
