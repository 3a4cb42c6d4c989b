/**
 * How this command is run on this machine, for help texts and error hints. `npx patchbay` would
 * fetch an unrelated package from the npm registry, so instructions name this clone's own entry:
 * `patchbay` only when it was started through a linked `patchbay` on PATH, otherwise node and
 * the path of bin/patchbay.mjs (relative when the working folder is the clone's root).
 */
import { basename, relative, resolve, sep } from "node:path";
import { binPath } from "../paths.ts";

/**
 * The file that starts this command: bin/patchbay.mjs, or, for a build copied out of its
 * package (no package.json above it), the script the process was started with.
 */
export function entryPath(script: string | undefined): string {
  try {
    return binPath();
  } catch {
    return script !== undefined ? resolve(script) : "bin/patchbay.mjs";
  }
}

/** `script` is the path the process was started with (process.argv[1]); `cwd` the working folder. */
export function programName(script: string | undefined, cwd: string, bin: string = entryPath(script)): string {
  if (script !== undefined && basename(script) === "patchbay") return "patchbay";
  const atRoot = relative(cwd, bin).split(sep).join("/") === "bin/patchbay.mjs";
  return `node ${atRoot ? "bin/patchbay.mjs" : bin}`;
}
