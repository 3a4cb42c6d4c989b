import type { FiskClient, Tap, TapFrame } from "../../../core/fisk/client/index.ts";
import type { Issue, Verdict } from "../../../core/validation/types.ts";

/** The part of the fisk-ai client the panels use; tests pass a fake with the same shape. */
export type FiskApi = Pick<FiskClient, "listAgents" | "agentInfo" | "listInstances" | "discover" | "callTool" | "startTask" | "sendRaw">;

/** Starts a tap on the current connection (the client's `startTap`, bound to its deps). */
export type TapStarter = (subjects: readonly string[], onFrame: (f: TapFrame) => void) => Tap;

/** Checks one message text with the validation engine (which runs in a worker, hence async). */
export type Validate = (text: string) => Promise<Verdict>;

/** Checks a value against a peer's JSON Schema (a tool's input_schema), also in the worker. */
export type CheckInput = (schema: unknown, value: unknown) => Promise<Issue[]>;

/** Where the panels get a client: null while NATS is not connected. */
export interface FiskSource {
  client(): FiskApi | null;
  tap(): TapStarter | null;
  readonly validate: Validate;
  readonly checkInput: CheckInput;
}

/** The sentence every action shows when there is no connection to act on. */
export const NOT_CONNECTED = "Not connected to NATS: connect first (Connection, on the left).";
