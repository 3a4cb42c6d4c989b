export { BRIDGE_META_KEY, bridgeResult } from "./bridge-result.ts";
export type { BridgedCall } from "./bridge-result.ts";
export { bridgeConfigProblem, discoveryProblem, planBridge } from "./bridge-plan.ts";
export type { BridgeConfig, BridgePlan, HostCard } from "./bridge-plan.ts";
export { FiskBridge } from "./fisk-bridge.ts";
export type { BridgePeer, FiskBridgeOptions } from "./fisk-bridge.ts";
