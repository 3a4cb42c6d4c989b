/**
 * The bridge as real processes: a `patchbay serve --nats` peer (a toolkit file written to a temp
 * folder) and `patchbay serve --http --bridge …` in front of it, both from one built CLI.
 */
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { startServeProcess, type BuiltCli, type ServeProcess } from "./serve-processes.ts";
import { startHttpServe, type HttpServe } from "./served-cli.ts";

/** A toolkit in its file form, `tools` as the file spells them. */
export const toolkitFile = (name: string, tools: readonly Record<string, unknown>[]) => ({ format: "patchbay.toolkit", version: 1, name, description: `${name}, served over NATS for the bridge tests.`, tools });

/**
 * What the conformance suite's tools scenarios call, as a fisk-ai agent can serve them: a program
 * that prints the expected text, and one whose program cannot start (a harness failure, is_error).
 */
export const CONFORMANCE_TOOLS = [
  { name: "test_simple_text", description: "Prints the conformance suite's simple text.", inputSchema: { type: "object", properties: {} }, run: { command: ["/bin/echo", "This is a simple text response for testing."] } },
  { name: "test_error_handling", description: "Always fails: its program does not exist, so the agent answers is_error.", inputSchema: { type: "object", properties: {} }, run: { command: ["/nonexistent/patchbay-conformance-error"] } },
];

/** `serve --nats` serving `tools` as `identity` (the demo agent when `tools` is undefined). */
export async function startPeer(built: BuiltCli, natsUrl: string, identity: string, tools?: readonly Record<string, unknown>[], extra: readonly string[] = []): Promise<ServeProcess> {
  const args = ["--nats-url", natsUrl, "--identity", identity, ...extra];
  if (tools) {
    const file = join(built.dir, `${identity}.json`);
    await writeFile(file, JSON.stringify(toolkitFile(identity, tools)));
    args.push(file);
  }
  return startServeProcess(built, args);
}

/** `serve --http --port 0 --bridge …`, resolved once it prints its URL. */
export function startBridgeHttp(built: BuiltCli, natsUrl: string, args: readonly string[]): Promise<HttpServe> {
  return startHttpServe(built, ["--nats-url", natsUrl, ...args]);
}

/** A bridge that should not start: its exit code and what it said. */
export function failedBridge(built: BuiltCli, natsUrl: string, args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [built.cli, "serve", "--http", "--port", "0", "--nats-url", natsUrl, ...args], { cwd: built.dir, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  return new Promise((resolve) => child.once("exit", (code) => (clearTimeout(timer), resolve({ code, stdout, stderr }))));
}
