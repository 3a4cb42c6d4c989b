// How another workbench sends messages to Validate: it leaves them here and switches the hash;
// the Validate workbench takes them when it mounts. Kept tiny so importing it costs nothing.
import type { RunInput } from "./validation-protocol.ts";

export interface ValidateHandoff {
  readonly inputs: readonly RunInput[];
  /** Open the first message in the editor as soon as it is validated. */
  readonly selectFirst: boolean;
}

let pending: ValidateHandoff | null = null;

export const VALIDATE_HASH = "#/validate";

/** Leaves the inputs for the Validate workbench and switches to it. */
export function openInValidate(handoff: ValidateHandoff, loc: Pick<Location, "hash"> = location): void {
  pending = handoff;
  loc.hash = VALIDATE_HASH;
}

/** The waiting handoff, once; null when there is none. */
export function takeHandoff(): ValidateHandoff | null {
  const taken = pending;
  pending = null;
  return taken;
}
