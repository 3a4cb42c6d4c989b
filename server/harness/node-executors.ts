/**
 * The executors `patchbay run` and the backend's runs use: MCP, A2A over HTTP and NATS, each
 * loaded (with the MCP SDK, the A2A client, the NATS transport and the validation packs) only
 * when a step of its protocol first runs, and closed with the run.
 */
import type { Executors, StepExecutor } from "../../src/core/harness/run-types.ts";
import type { ValidationEngine } from "../../src/core/validation/engine.ts";

export interface NodeExecutorOptions {
  /** For A2A and MCP over HTTP; Node's own by default. */
  readonly fetch?: typeof fetch;
}

/** A StepExecutor made on first use; closing one never made loads nothing. */
function lazy(make: () => Promise<StepExecutor>): StepExecutor {
  let made: Promise<StepExecutor> | undefined;
  return {
    run: async (step, ctx) => (await (made ??= make())).run(step, ctx),
    close: async () => {
      if (made) await (await made).close();
    },
  };
}

export function nodeExecutors(options: NodeExecutorOptions = {}): Executors {
  let engine: Promise<ValidationEngine> | undefined;
  // One engine for the three, so its compiled validators are shared.
  const shared = () => (engine ??= import("../../src/core/packs/index.ts").then((m) => m.createValidationEngine()));
  const fetchOption = options.fetch ? { fetch: options.fetch } : {};
  return {
    mcp: lazy(async () => (await import("./mcp-executor.ts")).mcpExecutor({ engine: await shared(), ...fetchOption })),
    a2a: lazy(async () => (await import("./a2a-executor.ts")).a2aExecutor({ engine: await shared(), ...fetchOption })),
    nats: lazy(async () => (await import("./nats-executor.ts")).natsExecutor({ engine: await shared() })),
  };
}
