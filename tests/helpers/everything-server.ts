/** server-everything as the tests start it: its entry file, and a preload that keeps it on loopback. */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { freePort } from "../../server/nats/free-port.ts";

export const EVERYTHING_JS = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url));

/** server-everything listens on every interface; this preload keeps its bare-port listen on loopback. */
const LOOPBACK_ONLY = `import net from "node:net";
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === "number" || (typeof args[0] === "string" && /^\\d+$/.test(args[0]))) {
    return listen.call(this, Number(args[0]), "127.0.0.1", ...args.slice(1).filter((a) => typeof a === "function"));
  }
  return listen.apply(this, args);
};`;

/** The node arguments that load the loopback preload before the server's own code. */
export const LOOPBACK_IMPORT: readonly string[] = ["--import", `data:text/javascript,${encodeURIComponent(LOOPBACK_ONLY)}`];

/** server-everything in an HTTP mode on a free loopback port, once it says it listens. */
export async function startEverythingHttp(mode: "streamableHttp" | "sse"): Promise<{ readonly port: number; readonly child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [...LOOPBACK_IMPORT, EVERYTHING_JS, mode], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] });
  await new Promise<void>((resolve, reject) => {
    let said = "";
    child.stderr!.on("data", (d: Buffer) => {
      said += d.toString();
      if (/(running|listening) on port/.test(said)) resolve();
    });
    child.once("exit", (code) => reject(new Error(`server-everything ${mode} exited (${code}): ${said}`)));
  });
  return { port, child };
}
