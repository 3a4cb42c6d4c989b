import { version } from "../package.json";

/** Patchbay's version, from package.json (inlined by the build). */
export const VERSION: string = version;
