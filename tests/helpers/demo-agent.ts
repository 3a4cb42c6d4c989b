import { systemClock, systemScheduler } from "../../src/core/env/index.ts";
import type { NatsPort } from "../../src/core/nats/port.ts";
import { createValidationEngine } from "../../src/core/packs/index.ts";
import { DEMO_TOOLKIT } from "../../src/core/serving/demo-toolkit.ts";
import { engineValidator, startFiskServer, type FiskServeOptions, type FiskServer } from "../../src/core/serving/fisk/index.ts";

/**
 * Patchbay's demo toolkit served as a fisk-ai agent named `name` on `port`, as `patchbay serve`
 * runs it: the real clock, scheduler and randomness, and every frame it answers validated. A test
 * that needs more (room for slow calls, its own executor or logger) says so in `options`.
 */
export function startDemoAgent(port: NatsPort, name: string, options: Partial<Omit<FiskServeOptions, "port">> = {}): Promise<FiskServer> {
  return startFiskServer({
    port,
    toolkit: { ...DEMO_TOOLKIT, name },
    clock: systemClock(performance, Date),
    scheduler: systemScheduler(),
    random: (b) => crypto.getRandomValues(b),
    validate: engineValidator(createValidationEngine()),
    version: "0.1.0",
    ...options,
  });
}
