import { getContext, setContext } from "svelte";
import type { BackendClient } from "../../core/backend/backend-client.ts";
import type { Environment } from "../../core/env/index.ts";
import type { NatsSession } from "../../core/nats/index.ts";
import type { WireLog } from "../../core/wire/index.ts";

/** The long-lived objects the UI works with, built once in main.ts. */
export interface AppServices {
  readonly env: Environment;
  readonly backend: BackendClient;
  readonly wireLog: WireLog;
  readonly nats: NatsSession;
}

const KEY = Symbol("patchbay.services");

export function provideServices(services: AppServices): void {
  setContext(KEY, services);
}

export function useServices(): AppServices {
  const services = getContext<AppServices | undefined>(KEY);
  if (!services) throw new Error("AppServices not provided: mount components under App");
  return services;
}
