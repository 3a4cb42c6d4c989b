/** server-everything as the tests start it: its entry file, and a preload that keeps it on loopback. */
import { fileURLToPath } from "node:url";

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
