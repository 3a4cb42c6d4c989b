import { DEFAULT_MAX_BODY, DEFAULT_PORT } from "../config.ts";
import { DEFAULT_SERVE_PORT } from "../serving/start-options.ts";
import { DEFAULT_A2A_PORT } from "../serving/a2a-routes.ts";

/** Commands announced for later releases; named in help but refused when run. */
export const COMING_COMMANDS = ["run"] as const;

/** `patchbay --help`; `prog` is how this command is run here (see program.ts). */
export const mainUsage = (prog: string): string => `Usage: ${prog} <command> [options]

Patchbay is a browser-based developer console for MCP and A2A (over HTTP and NATS).

Commands:
  start          Start the local backend and web console (what 'npm start' runs)
  validate       Classify and validate captured MCP, A2A and fisk-ai messages
  serve          Serve a toolkit (or the demo agent) to MCP clients over stdio or HTTP, or
                 as an A2A agent over HTTP
  call a2a       Send one message to an A2A agent over HTTP and print its answer
  help [command] Show help for a command

Coming in later releases, not available yet: ${COMING_COMMANDS.join(", ")}.

Options:
  -h, --help     Show this help
  -v, --version  Print the version

Run '${prog} <command> --help' for the options of a command.
`;

/** `patchbay start --help`. */
export const startUsage = (prog: string): string => `Usage: ${prog} start [options]

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

/** `patchbay validate --help`. */
export const validateUsage = (prog: string): string => `Usage: ${prog} validate [options] <file>...

Classifies every message in the files (MCP, A2A over HTTP v0.1 to v1.0, fisk-ai Gen 1 and
Gen 2), validates it against the schema of its protocol version, and prints one line per
message that is invalid, unrecognised or not JSON, naming the file, the message's index in
it, the kind and version it was judged by and why, and its first error. A message that
declares its version (an initialize's or a card's protocolVersion, a fisk-ai protocol id) is
judged by that version; one that declares none is judged by its shape, and the report says
which versions it is valid in. A method the protocol does not define is an error (with "did
you mean" for a near miss) unless allowed with --allow-method. Exits 1 when any message
failed, 0 when all passed (a valid protocol error response passes), 2 on a usage error.

Files may be a JSON message, a JSON array, JSON Lines, a HAR file, or a Patchbay traffic
export; - reads standard input. Each file is one session: an initialize or tools/list in it
informs the checks of the messages after it.

Options:
  --json                   Print the full report as JSON (every message, every issue, and
                           judgedBy: family, kind, version, basis, validIn, evidence)
  --warnings               Also print messages that are valid but have warnings
  --all                    Print a line for every message, valid ones too
  --allow-method <name>    Accept a deliberate extension method (repeatable; a trailing *
                           matches a prefix, e.g. --allow-method 'acme/*')
  --as <pack>[:<kind>]     Validate every message as this pack (and kind), e.g.
                           --as mcp/2025-06-18 or --as fisk-ai/gen2:tool.reply
  -h, --help               Show this help
`;

/** `patchbay serve --help`. */
/** `bin` is the absolute path of bin/patchbay.mjs, which a client that starts Patchbay needs. */
export const serveUsage = (prog: string, bin: string): string => `Usage: ${prog} serve (--stdio | --http | --a2a) [options] [toolkit]

Serves a toolkit's tools to MCP clients, or as an A2A agent. The toolkit is a JSON or YAML file
(format "patchbay.toolkit") or a toolkit saved from the console, as found in the workspace
(e.g. ~/.patchbay/toolkits/<name>.json); without one, the built-in demo agent is served
(over MCP together with the fixtures the MCP conformance suite expects). Tagged ai:confirm
tools ask for approval first (see --confirm); ai:deny tools are never served.

  --stdio    For a client that starts Patchbay itself, such as Claude Desktop:
             stdout carries only MCP messages, logs go to stderr. Ends when stdin closes.
  --http     Streamable HTTP at http://127.0.0.1:<port>/mcp, for the MCP Inspector's URL
             form and other clients on this machine. Ctrl-C stops it.
  --a2a      An A2A agent at http://127.0.0.1:<port>: its card at
             /.well-known/agent-card.json, JSON-RPC at /a2a/jsonrpc, HTTP+JSON under
             /a2a/rest, each in A2A v1.0 and v0.3 (A2A-Version 1.0, or none for 0.3). One
             skill per tool: a data part {"skill": "<tool>", "arguments": {…}} runs it as a
             task; a text-only message runs the default skill (the demo agent's echo, see
             --default-skill) or is refused with the skills listed. Ctrl-C stops it.

Claude Desktop (claude_desktop_config.json), this clone's command:
  { "mcpServers": { "patchbay": { "command": "node", "args": [${JSON.stringify(bin)}, "serve", "--stdio"] } } }
MCP Inspector: run '${prog} serve --http', choose Streamable HTTP, paste the printed URL.
A2A: run '${prog} serve --a2a', then e.g. '${prog} call a2a http://127.0.0.1:${DEFAULT_A2A_PORT} hello'.

Options:
  --port <n>               Port for --http (default ${DEFAULT_SERVE_PORT}) or --a2a (default
                           ${DEFAULT_A2A_PORT}); 0 picks a free port
  --confirm <mode>         Approval for ai:confirm tools. MCP: auto (ask clients that can,
                           run the rest with a logged warning; the default), always (refuse
                           clients that cannot be asked), never (leave it to the client).
                           Approval by the console's user (operator) is only for agents
                           started from the Serve workbench. A2A: omit (the default: a peer
                           agent has no operator, so they are not served) or ask (each call
                           stops at input-required until the task is answered yes or no)
  --concurrency <n>        Tool calls running at once (default 2); over MCP others wait,
                           over A2A a task beyond the limit is rejected at once
  --timeout <ms>           Time limit for every call (default: each tool's own)
  --fixtures, --no-fixtures
                           MCP: serve the conformance fixtures too (default: only with the
                           demo agent)
  --default-skill <tool>   A2A: the tool a text-only message runs, one whose input is a
                           single string argument (default: echo for the demo agent, none
                           for a toolkit)
  --tck                    A2A: behave as the A2A TCK documents for the agent it tests: a
                           v0.3 send without "configuration" returns at once, a task's tool
                           starts once the task has had no message for 2.5 s, and a
                           message id starting test-resubscribe-message-id keeps its task
                           running 2 x TCK_STREAMING_TIMEOUT seconds (env, default 2)
  -h, --help               Show this help
`;

/** `patchbay call --help`. */
export const callUsage = (prog: string): string => `Usage: ${prog} call a2a [options] <card-or-base-url> <text>

Sends one message to an A2A agent over HTTP and prints its answer: the agent's direct message,
or the task's final state and artifacts. The agent is its base URL (the card is looked for at
/.well-known/agent-card.json, then /.well-known/agent.json) or the card's own URL. The dialect
(v0.1 "Google A2A", v0.2, v0.3, v1.0) and the binding come from the card unless chosen.
Exits 0 on a completed task or a direct message; 1 when the task failed, was rejected or
canceled, needs input, or the agent could not be reached or answered in time; 2 on a usage
error. The card and the interface used are named on stderr.

Options:
  --a2a-version <v>        Talk this dialect: 0.1, 0.2, 0.3 or 1.0 (an interface the card offers)
  --binding <b>            jsonrpc or rest (HTTP+JSON, v0.3 and v1.0)
  --stream                 Stream the answer and print each event as it arrives
  --json                   Print the agent's raw JSON frames, one per line
  -H, --header 'N: v'      Send this header with every request (repeatable)
  --bearer <token>         Send Authorization: Bearer <token>
  --no-version-header      Leave A2A-Version out (the agent must then assume 0.3)
  --send-version-header    Send A2A-Version to an older dialect too
  --timeout <ms>           Give up after this long, card included (default 120000); a task
                           still running then (or on Ctrl-C) is canceled on the agent
  --no-cancel              Leave a task the call gave up on running on the agent
  -h, --help               Show this help

MCP and NATS calls (call mcp, call nats) are coming in a later release.
`;
