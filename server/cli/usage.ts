import { DEFAULT_MAX_BODY, DEFAULT_PORT } from "../config.ts";

/** Commands announced for later releases; named in help but refused when run. */
export const COMING_COMMANDS = ["validate", "serve", "run"] as const;

/** `patchbay --help`. */
export const MAIN_USAGE = `Usage: patchbay <command> [options]

Patchbay is a browser-based developer console for MCP and A2A (over HTTP and NATS).

Commands:
  start          Start the local backend and web console (what 'npm start' runs)
  help [command] Show help for a command

Coming in later releases, not available yet: ${COMING_COMMANDS.join(", ")}.

Options:
  -h, --help     Show this help
  -v, --version  Print the version

Run 'patchbay start --help' for the options of start.
`;

/** `patchbay start --help`. */
export const START_USAGE = `Usage: patchbay start [options]

Starts Patchbay's backend on 127.0.0.1, serves the web console and prints the URL carrying
this launch's access token. Unless NATS_URL or --no-nats is given it also starts a private
nats-server (WebSocket enabled, free ports). Ctrl-C stops everything it started.

Options:
  --host <address>         Address to listen on (default 127.0.0.1; loopback only)
  --port <n>               Port to listen on (default ${DEFAULT_PORT}, env PORT; 0 picks a free port)
  --workspace <dir>        Folder for saved documents (default ~/.patchbay, env PATCHBAY_WORKSPACE)
  --nats-url <url>         Use this NATS server instead of starting one (env NATS_URL)
  --nats-ws-url <url>      That server's WebSocket URL, for the browser (env NATS_WS_URL)
  --no-nats                Run without NATS
  --allow-origin <origin>  Also accept this browser origin, e.g. the Vite dev server
                           http://localhost:5173 (repeatable)
  --max-body <bytes>       Largest request body accepted (default ${DEFAULT_MAX_BODY})
  --dist <dir>             Folder of the built web app (default dist/client in the package)
  --dangerously-expose     Allow a non-loopback or wildcard --host: anyone who can reach the
                           port and learns the token controls Patchbay
  -h, --help               Show this help
`;
