/**
 * The bridge's NATS side, shared by `patchbay serve --bridge` and the Serve workbench: a fisk-ai
 * client on a given connection, the agents discovered once, and what stops the bridge from
 * starting (an agent that cannot be discovered, names that still collide), as fisk-ai stops a run
 * whose remote tools cannot be imported.
 */
import type { Logger } from "../../src/core/env/environment.ts";
import { systemClock, systemScheduler } from "../../src/core/env/index.ts";
import { callTool, DEFAULT_SENDER, discover, type FiskClientDeps } from "../../src/core/fisk/client/index.ts";
import { tcpConnector } from "../../src/core/nats/node/tcp-connector.ts";
import type { NatsConnector, NatsPort } from "../../src/core/nats/port.ts";
import { createValidationEngine } from "../../src/core/packs/index.ts";
import type { BridgeConfig, BridgePlan } from "../../src/core/serving/bridge/bridge-plan.ts";
import { FiskBridge } from "../../src/core/serving/bridge/fisk-bridge.ts";
import { servedSet } from "../../src/core/serving/toolkit/served-set.ts";
import type { Toolkit } from "../../src/core/serving/toolkit/toolkit-types.ts";
import { HttpError } from "../http/errors.ts";
import type { NatsTarget } from "./nats-serve.ts";

export interface OpenedBridge {
  readonly bridge: FiskBridge;
  readonly plan: BridgePlan;
  /** Why the bridge must not start; empty when it may. */
  readonly fatal: readonly string[];
}

/** Discovers the agents on `port`; the toolkit's served names are taken, so clashing bridged names are prefixed. */
export async function openBridge(port: NatsPort, config: BridgeConfig, toolkit: Toolkit, logger: Logger): Promise<OpenedBridge> {
  const engine = createValidationEngine();
  const calls: FiskClientDeps = {
    port,
    clock: systemClock(performance, Date),
    scheduler: systemScheduler(),
    random: (b) => crypto.getRandomValues(b),
    sender: { ...DEFAULT_SENDER, name: "patchbay-bridge" },
  };
  // Cards are validated, so a malformed one is named; replies are read by the outcome rules alone.
  const discovery: FiskClientDeps = { ...calls, validate: (text) => engine.session().validateText(text) };
  const bridge = new FiskBridge({
    peer: { discover: (identity, opts) => discover(discovery, identity, opts), callTool: (identity, tool, input, opts) => callTool(calls, identity, tool, input, opts) },
    config,
    localNames: servedSet(toolkit, "mcp").filter((e) => e.served).map((e) => e.tool.name),
    logger,
  });
  const plan = await bridge.refresh();
  const fatal = [
    ...plan.errors.map((e) => `cannot bridge ${e.identity}: ${e.message}`),
    ...(plan.collisionError ? [`${plan.collisionError} (bridge fewer agents, or narrow them with --bridge-exclude)`] : []),
  ];
  return { bridge, plan, fatal };
}

/** A bridge for the Serve workbench on the backend's NATS server; each failure is an HttpError in words. */
export async function bridgeForWorkbench(input: {
  readonly target: NatsTarget | undefined;
  readonly connector?: NatsConnector;
  readonly config: BridgeConfig;
  readonly toolkit: Toolkit;
  readonly logger: Logger;
}): Promise<OpenedBridge & { close(): Promise<void> }> {
  const { target, config } = input;
  if (!target || "unavailable" in target) {
    throw new HttpError(409, "nats_unavailable", `cannot bridge ${config.identities.join(", ")}: the console has no NATS server (${target?.unavailable ?? "NATS is not configured"})`);
  }
  let port: NatsPort;
  try {
    port = await (input.connector ?? tcpConnector()).connect({ servers: target.url, name: "patchbay-bridge", ...(target.auth ? { auth: target.auth } : {}) });
  } catch (err) {
    throw new HttpError(502, "nats_unreachable", `cannot bridge ${config.identities.join(", ")}: ${(err as Error).message}`);
  }
  const close = () => port.close().catch(() => undefined);
  const opened = await openBridge(port, config, input.toolkit, input.logger).catch(async (err: unknown) => {
    await close();
    throw err;
  });
  if (opened.fatal.length > 0) {
    await close();
    throw new HttpError(409, "bridge_failed", opened.fatal.join("; "));
  }
  return { ...opened, close };
}
