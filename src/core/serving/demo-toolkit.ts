import { BUILTIN_DEFS } from "./builtin-tools.ts";
import { TOOLKIT_FORMAT, TOOLKIT_VERSION, type Toolkit } from "./toolkit/toolkit-types.ts";

/** What `patchbay serve` serves when given no toolkit: the built-in demo tools. */
export const DEMO_TOOLKIT: Toolkit = {
  format: TOOLKIT_FORMAT,
  version: TOOLKIT_VERSION,
  name: "patchbay-demo",
  description: "Patchbay's demo agent: tools that need no programs, for trying clients against a peer whose behaviour you control.",
  instructions: "Demo tools: echo and add answer at once; sleep reports progress; fail ends with a chosen exit code; confirm needs approval.",
  filter: { include: [], exclude: [] },
  tools: BUILTIN_DEFS,
};
