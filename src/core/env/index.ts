export type { Clock, Environment, IdSource, LogFields, Logger } from "./environment.ts";
export {
  manualClock,
  randomIds,
  sequentialIds,
  silentLogger,
  sinkLogger,
  systemClock,
} from "./defaults.ts";
export type { LogSink } from "./defaults.ts";
export { ManualScheduler, systemScheduler } from "./scheduler.ts";
export type { Scheduler } from "./scheduler.ts";
