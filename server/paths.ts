/** Where the package lives, found from this module's own URL so source and build agree. */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The nearest folder above `fromUrl` holding Patchbay's package.json. */
export function findPackageRoot(fromUrl: string = import.meta.url): string {
  let dir = dirname(fileURLToPath(fromUrl));
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name === "patchbay") return dir;
      } catch {
        // Not ours or unreadable: keep walking up.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find Patchbay's package.json above ${fileURLToPath(fromUrl)}`);
    dir = parent;
  }
}

/** The absolute path of bin/patchbay.mjs, the command this clone runs as. */
export function binPath(root: string = findPackageRoot()): string {
  return join(root, "bin", "patchbay.mjs");
}
