/** What the Serve workbench knows about a running agent, to write snippets for its clients. */
export interface SnippetInput {
  readonly name: string;
  /** The Streamable HTTP endpoint, when the MCP surface runs. */
  readonly mcpUrl?: string;
  /** How a client starts the stdio server, e.g. node and the path of bin/patchbay.mjs. */
  readonly stdio?: { readonly command: string; readonly args: readonly string[] };
  /**
   * How this machine runs Patchbay's command line, e.g. node and the path of bin/patchbay.mjs.
   * Without it (or `stdio`) no snippet runs Patchbay: a bare `patchbay` is on no fresh clone's PATH.
   */
  readonly patchbay?: readonly string[];
  /** The fisk-ai identity, when the NATS surface runs. */
  readonly identity?: string;
  /** Where the A2A agent answers, when that surface runs. */
  readonly a2a?: A2aSnippetInput;
}

export interface A2aSnippetInput {
  readonly cardUrl: string;
  readonly jsonRpcUrl: string;
  /** The one text argument of the served `echo` skill; absent when echo is not served (the curl example sends text). */
  readonly echoArgument?: string;
}

export interface Snippet {
  readonly title: string;
  readonly language: "json" | "shell" | "yaml" | "text";
  readonly text: string;
}

const shellWord = (w: string): string => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`);

/** What the A2A examples say to the agent. */
export const A2A_SNIPPET_TEXT = "hello";

/** How the snippets run Patchbay's own command line: as given, else the stdio command up to `serve`; null when unknown. */
function patchbayCommand(input: Pick<SnippetInput, "stdio" | "patchbay">): readonly string[] | null {
  if (input.patchbay && input.patchbay.length > 0) return input.patchbay;
  const stdio = input.stdio;
  const at = stdio?.args.indexOf("serve") ?? -1;
  return stdio && at >= 0 ? [stdio.command, ...stdio.args.slice(0, at)] : null;
}

/**
 * A v0.3 JSON-RPC message/send (no A2A-Version header: the served agent reads it as 0.3): a data
 * part calling echo when it is served, else a text part, which only the default skill takes.
 */
export function a2aSendBody(a2a: A2aSnippetInput): string {
  const part = a2a.echoArgument !== undefined ? { kind: "data", data: { skill: "echo", arguments: { [a2a.echoArgument]: A2A_SNIPPET_TEXT } } } : { kind: "text", text: A2A_SNIPPET_TEXT };
  return JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: { message: { kind: "message", role: "user", messageId: "patchbay-snippet-1", parts: [part] } } });
}

function a2aSnippets(a2a: A2aSnippetInput, patchbay: readonly string[] | null): Snippet[] {
  const curl = ["curl", "-sS", a2a.jsonRpcUrl, "-H", "Content-Type: application/json", "-d", a2aSendBody(a2a)].map(shellWord);
  return [
    { title: "A2A Agent Card", language: "text", text: a2a.cardUrl },
    ...(patchbay ? [{ title: "Patchbay, call a2a", language: "shell" as const, text: [...patchbay, "call", "a2a", a2a.cardUrl, A2A_SNIPPET_TEXT].map(shellWord).join(" ") }] : []),
    { title: "curl, JSON-RPC message/send (v0.3)", language: "shell", text: `${curl.slice(0, 5).join(" ")} \\\n  ${curl.slice(5).join(" ")}` },
    { title: "A2A Inspector", language: "text", text: `Agent URL: ${a2a.cardUrl}\n(paste it into the A2A Inspector, github.com/a2aproject/a2a-inspector, run on this machine: the agent answers on 127.0.0.1 only)` },
  ];
}

/** Ready-to-paste configuration for Claude Desktop, Claude Code, the MCP Inspector, fisk-ai peers and A2A clients. */
export function clientSnippets(input: SnippetInput): Snippet[] {
  const out: Snippet[] = [];
  if (input.stdio) {
    const server = { command: input.stdio.command, args: [...input.stdio.args] };
    out.push({ title: "Claude Desktop (claude_desktop_config.json)", language: "json", text: JSON.stringify({ mcpServers: { [input.name]: server } }, null, 2) });
    out.push({ title: "Claude Code, stdio", language: "shell", text: ["claude", "mcp", "add", input.name, "--", input.stdio.command, ...input.stdio.args].map(shellWord).join(" ") });
  }
  if (input.mcpUrl) {
    out.push({ title: "Claude Code, Streamable HTTP", language: "shell", text: ["claude", "mcp", "add", "--transport", "http", input.name, input.mcpUrl].map(shellWord).join(" ") });
    out.push({ title: "MCP Inspector", language: "text", text: `Transport Type: Streamable HTTP\nURL: ${input.mcpUrl}\nProtocol era: auto, legacy or modern (this URL serves 2024-11-05 … 2025-11-25 and 2026-07-28)` });
    out.push({ title: "VS Code / Cursor (mcp.json)", language: "json", text: JSON.stringify({ servers: { [input.name]: { type: "http", url: input.mcpUrl } } }, null, 2) });
  }
  if (input.identity) {
    const id = input.identity;
    out.push({ title: "fisk-ai remote_tools entry", language: "yaml", text: `remote_tools:\n  - name: ${id}\n` });
    out.push({
      title: "NATS subjects",
      language: "text",
      text: [`choria.fisk-ai.discovery.${id}  (discovery.request → one discovery.reply)`, `choria.fisk-ai.tool.${id}  (tool.request → ack, event.status…, tool.reply)`, `$SRV.INFO.${id}  (micro service info)`].join("\n"),
    });
  }
  if (input.a2a) out.push(...a2aSnippets(input.a2a, patchbayCommand(input)));
  return out;
}
