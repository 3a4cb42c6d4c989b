import { FiskClient, startTap, statusFanout, type FiskClientDeps } from "../../../core/fisk/client/index.ts";
import { systemScheduler } from "../../../core/env/index.ts";
import { loggedPort } from "../../../core/nats/logged-port.ts";
import type { NatsPort } from "../../../core/nats/port.ts";
import type { AppServices } from "../../state/services.ts";
import { ValidationClient } from "../validate/validation-client.ts";
import type { FiskApi, FiskSource, TapStarter } from "./fisk-api.ts";

/** The name this console gives itself in `sender`. */
export const CONSOLE_IDENTITY = { name: "patchbay-console" } as const;

/**
 * The live source: a client over the session's current port, wrapped so every frame lands in the
 * Traffic log. A new port (reconnect, another server) gets a new client. Validation runs in the
 * validation worker, because the engine compiles schemas to code the page may not run.
 */
export function appFiskSource(services: AppServices): FiskSource {
  let port: NatsPort | null = null;
  let deps: FiskClientDeps | null = null;
  let client: FiskClient | null = null;
  const validator = new ValidationClient();

  const current = (): FiskClientDeps | null => {
    const live = services.nats.port;
    if (!live) return null;
    if (live !== port || !deps) {
      port = live;
      deps = {
        // The tap and the calls share this port: a 503 the tap's `_INBOX.>` catches still reaches the call.
        port: statusFanout(loggedPort(live, services.wireLog, services.env.clock, services.env.ids)),
        clock: services.env.clock,
        scheduler: systemScheduler(),
        random: (bytes) => crypto.getRandomValues(bytes),
        sender: CONSOLE_IDENTITY,
      };
      client = new FiskClient(deps);
    }
    return deps;
  };

  return {
    client(): FiskApi | null {
      return current() ? client : null;
    },
    tap(): TapStarter | null {
      const d = current();
      return d ? (subjects, onFrame) => startTap(d, subjects, onFrame) : null;
    },
    validate: (text) => validator.validateOne(text),
    checkInput: (schema, value) => validator.checkSchema(schema, value, "", "2020-12"),
  };
}
