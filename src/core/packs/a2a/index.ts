import type { FamilyModule, SchemaPack } from "../../validation/types.ts";
import { A2ASession } from "./session.ts";
import { A2A_V01 } from "./v0-1.ts";
import { A2A_V02 } from "./v0-2.ts";
import { A2A_V03 } from "./v0-3.ts";
import { A2A_V10 } from "./v1-0.ts";

export { A2A_V01, A2A_V02, A2A_V03, A2A_V10 };

/** Oldest first. */
export const A2A_PACKS: readonly SchemaPack[] = [A2A_V01, A2A_V02, A2A_V03, A2A_V10];

/** A2A over HTTP: v0.1 ("Google A2A"), v0.2.x, v0.3.0 and v1.0. */
export const a2aFamily: FamilyModule = {
  family: "a2a",
  label: "A2A",
  packs: A2A_PACKS,
  createSession: (options) => new A2ASession(options),
};
