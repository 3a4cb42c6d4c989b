import { DEFAULT_MAX_BODY, DEFAULT_PORT } from "../config.ts";
import { DEFAULT_SERVE_PORT } from "../serving/start-options.ts";
import { DEFAULT_A2A_PORT } from "../serving/a2a-start-options.ts";
import { DEFAULT_MCP_TIMEOUT_MS, DEFAULT_NATS_URL } from "./call-defaults.ts";

/** `patchbay --help`; `prog` is how this command is run here (see program.ts). */
export const mainUsage = (prog: string): string => `Usage: ${prog} <command> [options]

Patchbay is a browser-based developer console for MCP and A2A (over HTTP and NATS).

Commands:
  start          Start the local backend and web console (what 'npm start' runs)
  validate       Classify and validate captured MCP, A2A and fisk-ai messages
  serve          Serve a toolkit (or the demo agent) to MCP clients over stdio or HTTP, or
                 as an A2A agent over HTTP
  call mcp       Call one tool of an MCP server (a URL or a command line) and print the answer
  call a2a       Send one message to an A2A agent over HTTP and print its answer
  call nats      Call one tool of a fisk-ai agent over NATS and print the answer
  run            Run a collection's steps (MCP, A2A, NATS) and their assertions, headless;
                 JUnit XML and a JSON report for CI
  diff           Compare two run reports, captures, tool lists or agent cards
  help [command] Show help for a command

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
export const serveUsage = (prog: string, bin: string): string => `Usage: ${prog} serve (--stdio | --http | --a2a | --nats) [options] [toolkit]
       ${prog} serve (--http | --stdio) --bridge <identity>… [options] [toolkit]

Serves a toolkit's tools to MCP clients, as an A2A agent, or as a fisk-ai agent over NATS. The toolkit is a JSON or YAML file
(format "patchbay.toolkit") or a toolkit saved from the console, as found in the workspace
(e.g. ~/.patchbay/toolkits/<name>.json); without one, the built-in demo agent is served
(over MCP together with the fixtures the MCP conformance suite expects). Tagged ai:confirm
tools ask for approval first (see --confirm); ai:deny tools are never served. Over MCP both
protocol eras are served: 2024-11-05 … 2025-11-25 (initialize, sessions) and 2026-07-28
(stateless, a _meta envelope on each request); long tools may run as tasks in both.

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
  --nats     A fisk-ai agent on NATS (choria.fisk-ai.discovery|tool|task.<identity>):
             discovery, tool calls answered as reply sets, and tasks (request.prompt,
             answer, resume, read) from a scripted runner that needs no model: a prompt
             'run <tool> {json}' runs that tool (one per line; ai:confirm tools ask for
             approval first), anything else is echoed. Start several processes with one
             --identity to share its load; each names itself (--instance). Ctrl-C stops it.

  --bridge <identity>  With --http or --stdio: serve the tools of this fisk-ai agent on NATS
             (repeatable, or a,b) as MCP tools, named by fisk-ai's import rule (a name
             another tool has becomes <identity>_<name>); each call is a fisk-ai tool call
             whose reply becomes the MCP result. Only the agents' tools are served unless a
             toolkit is given too. An agent that cannot be discovered stops the command.

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
  --bridge-include <re>    Bridge: only the agents' tools whose name matches (repeatable; Go
                           RE2, unanchored); a pattern matching nothing is warned about
  --bridge-exclude <re>    Bridge: leave out the tools whose name matches (after include)
  --nats-url <url>         NATS (and --bridge): a server, or a cluster's nodes comma-separated (repeatable;
                           default env NATS_URL, else nats://127.0.0.1:4222). No credentials
                           in the URL
  --identity <name>        NATS: the identity served (default: the toolkit's name)
  --instance <name>        NATS: this process's name among the identity's instances
                           (default: generated, pb-xxxxxxxx)
  --creds <file>           NATS: a .creds file (user JWT and NKey seed)
  --nkey <file>            NATS: a file holding an NKey user seed (SU…)
  --token-env <var>        NATS: read the token from this environment variable
  --user <name> --password-env <var>
                           NATS: user and password, the password from this variable
  --keepalive <ms>         NATS: running-tool keepalive interval (default 10000)
  --task-workers <n>       NATS: tasks running at once before one is refused (default:
                           the concurrency)
  --tck                    A2A: behave as the A2A TCK documents for the agent it tests: a
                           v0.3 send without "configuration" returns at once, a task's tool
                           starts once the task has had no message for 2.5 s, and a
                           message id starting test-resubscribe-message-id keeps its task
                           running 2 x TCK_STREAMING_TIMEOUT seconds (env, default 2)
  -h, --help               Show this help
`;

/** `patchbay call --help`. */
export const callUsage = (prog: string): string => `Usage: ${prog} call mcp [options] <url | "command line"> <tool> ['<json arguments>']
       ${prog} call mcp [options] <url | "command line"> --list
       ${prog} call a2a [options] <card-or-base-url> <text>
       ${prog} call nats [options] <identity> <tool> ['<json input>']

Makes one request with the console's own clients, no browser, and prints the answer: the
tool's output or the agent's reply on stdout (the raw JSON with --json), what was reached and
how it ended on stderr. Every call exits 0 on success; 1 when the call was made but did not
succeed, or could not be made (the outcome is named on stderr); 2 on a usage error, including
arguments or input that are not a JSON object (nothing is started or sent then).

call mcp: an MCP tool call. The server is an http(s) URL (Streamable HTTP; a server that
answers its POST with a 4xx other than 401, 403, 413 or 429 is tried again over the legacy
HTTP+SSE transport) or a command line in quotes, started over stdio without a shell (quoting
as in a shell; pipes, redirections, $variables and a leading ~ are refused) and stopped when
the call ends. The tool is looked up in tools/list and the arguments are checked against its
inputSchema before anything is sent: an unknown tool is named with the tools the server lists,
a refusal names each failing JSON pointer; both exit 1. The answer: its text content, then its
structuredContent as JSON; --json prints the tools/call result as received (or a JSON-RPC
error's code, message and data). Exit 1 when the result has isError: true, the server answers
with a JSON-RPC error (code and message shown), the result is not a valid CallToolResult or its
structuredContent misses the outputSchema, or the server cannot be started or reached.

  --list                   Print the server's tools (name and description; --json: tools/list)
  --json                   Print the result as JSON
  --no-check               Send the call without listing tools or checking the arguments
  --transport <t>          streamable-http or sse only, no fallback (URL servers)
  --era <e>                legacy (initialize; the default), modern (2026-07-28: stateless,
                           server/discover) or auto (server/discover first, else initialize)
  -H, --header 'N: v'      Send this header with every request (repeatable; URL servers)
  --token-env <NAME>       Send Authorization: Bearer with the value of this environment
                           variable (URL servers; the token is never printed)
  --timeout <ms>           Longest wait for each step: connect, tools/list, the call
                           (default ${DEFAULT_MCP_TIMEOUT_MS})
  --oauth                  Get the token by OAuth first (URL servers): discovery, registration,
                           PKCE authorization (followed without a browser when the server
                           approves at once, else a URL to open and a loopback redirect on
                           127.0.0.1), token; a 401 refreshes it, a 403 insufficient_scope
                           authorizes again for the scope named. Steps are named on stderr
  --oauth-client-id <id>   A pre-registered client (else dynamic registration, or a metadata
                           document with --oauth-client-metadata-url)
  --oauth-client-secret-env <NAME>  Its secret, from this environment variable
  --oauth-client-metadata-url <url> A client ID metadata document, used where supported
  --oauth-scope '<scopes>' Ask for these scopes instead of those the server names
  --oauth-wait <s>         How long to wait for the browser's redirect (default 300)

call a2a: one message to an A2A agent over HTTP; prints the agent's direct message, or the
task's final state and artifacts. The agent is its base URL (the card is looked for at
/.well-known/agent-card.json, then /.well-known/agent.json) or the card's own URL. The dialect
(v0.1 "Google A2A", v0.2, v0.3, v1.0) and the binding come from the card unless chosen.
Exit 1 when the task failed, was rejected or canceled, needs input, or the agent could not be
reached or answered in time. The card and the interface used are named on stderr.

  --a2a-version <v>        Talk this dialect: 0.1, 0.2, 0.3 or 1.0 (an interface the card offers)
  --binding <b>            jsonrpc or rest (HTTP+JSON, v0.3 and v1.0)
  --stream                 Stream the answer and print each event as it arrives
  --json                   Print the agent's raw JSON frames, one per line
  -H, --header 'N: v'      Send this header with every request (repeatable)
  --token-env <NAME>       Send Authorization: Bearer with the token in this environment
                           variable (kept out of shell history and process listings)
  --bearer <token>         Send Authorization: Bearer <token> (visible to other users of the
                           machine; prefer --token-env)
  --no-version-header      Leave A2A-Version out (the agent must then assume 0.3)
  --send-version-header    Send A2A-Version to an older dialect too
  --timeout <ms>           Give up after this long, card included (default 120000); a task
                           still running then (or on Ctrl-C) is canceled on the agent
  --no-cancel              Leave a task the call gave up on running on the agent

call nats: a fisk-ai tool.request to choria.fisk-ai.tool.<identity>, its reply set read as the
NATS workbench reads it (Gen 1 and Gen 2 agents). Prints the tool's output; the outcome is
named in the workbench's words. Exit 0 on "success" (an in-process tool, or a command that
exited 0); 1 on "exit code N", "is_error", a capacity refusal, "not available", a micro error
(400, 500), "no responders" (nothing serves the identity), an idle timeout, a cancel, or when
the server cannot be reached.

  --server <url>           NATS server, nats:// or tls:// (default env PATCHBAY_NATS_URL, else
                           ${DEFAULT_NATS_URL}); user:password@ in the URL is used as credentials
  --creds <file>           Authenticate with this .creds file (user JWT and NKey seed)
  --token-env <NAME>       Authenticate with the token in this environment variable
  --json                   Print each message of the reply set as received, one per line
  --timeout <ms>           Longest silence between the agent's messages (default 120000; a
                           Gen 2 agent sends a keepalive every 10 s while a tool runs)

  -h, --help               Show this help
`;

/** `patchbay run --help`. */
export const runUsage = (prog: string): string => `Usage: ${prog} run <collection> [options]

Runs a collection saved from the console (or written by hand): each step's request to its
target over MCP, A2A over HTTP or NATS, the step's assertions on the answer, and the values it
captures for later steps. Prints one line per step and the assertions that failed, then a
summary. The collection is a file (a path, or a name ending in .json), or the name of one in
the workspace's collections folder.

Exit 0 when every step passed; 1 when a step failed, could not run, or the run was stopped
(Ctrl-C); 2 on a usage error or a collection that cannot be read.

Secrets the collection declares are read from the environment variables it names for them;
they are never written to reports.

Options:
  -e, --env <name>         Use this environment's variables
  -t, --target <n>=<v>     Point target n elsewhere: an MCP URL or command line, an A2A card
                           or base URL, a NATS server (repeatable)
  --step <name>            Run only this step (repeatable); earlier captures are not made
  --junit <file>           Write JUnit XML (one test case per step) for CI
  --json <file>            Write the run report as JSON (every step and assertion)
  --frames <which>         Keep the frames of the failed steps (default) or of all steps in
                           the reports; failed keeps a long run's memory bounded
  --workspace <dir>        Where named collections are (default ~/.patchbay, env
                           PATCHBAY_WORKSPACE)
  -h, --help               Show this help
`;

/** `patchbay diff --help`. */
export const diffUsage = (prog: string): string => `Usage: ${prog} diff <before> <after> [--json]

Compares two files of one kind, found from their content: two run reports (patchbay run --json,
or exported from the Collections workbench), two Traffic captures (JSONL exports), two MCP tool
lists (a tools/list result, its JSON-RPC response, or an array of tools; schema changes are
shown by JSON pointer, not as text), or two agent cards (A2A in any dialect, or fisk-ai). One
side may be - for standard input.

Exit 0 when they are the same, 1 when they differ, 2 on a usage error or an input that cannot
be read or compared.

Options:
  --json                   Print the structured diff as JSON
  -h, --help               Show this help
`;
