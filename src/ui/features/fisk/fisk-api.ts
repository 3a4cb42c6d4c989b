import type { FiskClient, Tap, TapFrame } from "../../../core/a2a-nats/client/index.ts";
import type { Verdict } from "../../../core/validation/types.ts";

/** The part of the fisk-ai client the panels use; tests pass a fake with the same shape. */
export type FiskApi = Pick<FiskClient, "listAgents" | "discover" | "callTool" | "startTask" | "sendRaw">;

/** Starts a tap on the current connection (the client's `startTap`, bound to its deps). */
export type TapStarter = (subjects: readonly string[], onFrame: (f: TapFrame) => void) => Tap;

/** Checks one message text with the validation engine (which runs in a worker, hence async). */
export type Validate = (text: string) => Promise<Verdict>;

/** Where the panels get a client: null while NATS is not connected. */
export interface FiskSource {
  client(): FiskApi | null;
  tap(): TapStarter | null;
  readonly validate: Validate;
}

/** The sentence every action shows when there is no connection to act on. */
export const NOT_CONNECTED = "Not connected to NATS: connect first (Connection, on the left).";
