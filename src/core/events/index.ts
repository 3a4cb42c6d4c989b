export { SnapshotStore, TypedEventTarget } from "./typed-event-target.ts";
export type { EventMap, Listener } from "./typed-event-target.ts";
export { untilAborted } from "./until-aborted.ts";
