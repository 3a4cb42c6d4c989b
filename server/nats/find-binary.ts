import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import { delimiter, join } from "node:path";

/** Where Debian and common installs put nats-server, searched after PATH. */
export const NATS_SERVER_DIRS = ["/usr/sbin", "/usr/local/sbin", "/usr/local/bin", "/usr/bin"];

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** The first executable `name` on PATH, then in the usual system folders; null when there is none. */
export async function findExecutable(
  name: string,
  pathEnv: string | undefined,
  extraDirs: readonly string[] = NATS_SERVER_DIRS,
): Promise<string | null> {
  const dirs = [...(pathEnv ?? "").split(delimiter).filter((d) => d !== ""), ...extraDirs];
  for (const dir of dirs) {
    const candidate = join(dir, name);
    if (await isExecutable(candidate)) return candidate;
  }
  return null;
}
