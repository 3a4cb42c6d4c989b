/**
 * GET /api/serve/info: how an MCP client on this machine starts Patchbay to serve a toolkit over
 * stdio (for Claude Desktop's config and the like), and where the workspace is. It only looks:
 * nothing is spawned, and a saved toolkit is checked for existence, not read.
 */
import { stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { documentNameProblem } from "../../src/core/persist/names.ts";
import { HttpError } from "../http/errors.ts";
import type { Route } from "../http/router.ts";
import { binPath } from "../paths.ts";

export interface ServeInfo {
  readonly stdio: { readonly command: string; readonly args: readonly string[] };
  readonly workspace: string;
}

export interface ServeInfoOptions {
  readonly workspace: () => string;
  /** Default: this Node binary. */
  readonly execPath?: string;
  /** Default: bin/patchbay.mjs in Patchbay's package. */
  readonly bin?: string;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

export function serveInfoRoutes(options: ServeInfoOptions): Route[] {
  let bin = options.bin;
  return [
    {
      method: "GET",
      path: "/api/serve/info",
      safe: true,
      handler: async (req) => {
        const workspace = resolve(options.workspace());
        const name = req.query?.get("toolkit") ?? "";
        const problem = name === "" ? null : documentNameProblem(name);
        if (problem !== null) throw new HttpError(400, "bad_query", `"toolkit" must name a saved toolkit: ${problem}`);
        const saved = name === "" ? undefined : join(workspace, "toolkits", `${name}.json`);
        bin ??= binPath();
        const args = [bin, "serve", "--stdio", ...(saved !== undefined && (await isFile(saved)) ? [saved] : [])];
        const body: ServeInfo = { stdio: { command: options.execPath ?? process.execPath, args }, workspace };
        return { status: 200, body };
      },
    },
  ];
}
