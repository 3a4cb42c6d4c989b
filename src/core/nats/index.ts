export { NatsSession, subjectProblem } from "./nats-session.ts";
export type {
  NatsConnectionState,
  NatsRequestInput,
  NatsRequestOutcome,
  NatsSessionSnapshot,
} from "./nats-session.ts";
export { NatsConnectError, NatsRequestError } from "./port.ts";
export type {
  NatsAuth,
  NatsConnectOptions,
  NatsConnector,
  NatsHeaders,
  NatsMessage,
  NatsPort,
  NatsStatusEvent,
} from "./port.ts";
export { parseNatsContext } from "./nats-context.ts";
export type { NatsContextImport, NatsContextResult } from "./nats-context.ts";
export { loggedPort } from "./logged-port.ts";
