/** What the Serve workbench knows about a running agent, to write snippets for its clients. */
export interface SnippetInput {
  readonly name: string;
  /** The Streamable HTTP endpoint, when the MCP surface runs. */
  readonly mcpUrl?: string;
  /** How a client starts the stdio server, e.g. node and the path of bin/patchbay.mjs. */
  readonly stdio?: { readonly command: string; readonly args: readonly string[] };
  /** The fisk-ai identity, when the NATS surface runs. */
  readonly identity?: string;
}

export interface Snippet {
  readonly title: string;
  readonly language: "json" | "shell" | "yaml" | "text";
  readonly text: string;
}

const shellWord = (w: string): string => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`);

/** Ready-to-paste configuration for Claude Desktop, Claude Code, the MCP Inspector and fisk-ai peers. */
export function clientSnippets(input: SnippetInput): Snippet[] {
  const out: Snippet[] = [];
  if (input.stdio) {
    const server = { command: input.stdio.command, args: [...input.stdio.args] };
    out.push({ title: "Claude Desktop (claude_desktop_config.json)", language: "json", text: JSON.stringify({ mcpServers: { [input.name]: server } }, null, 2) });
    out.push({ title: "Claude Code, stdio", language: "shell", text: ["claude", "mcp", "add", input.name, "--", input.stdio.command, ...input.stdio.args].map(shellWord).join(" ") });
  }
  if (input.mcpUrl) {
    out.push({ title: "Claude Code, Streamable HTTP", language: "shell", text: ["claude", "mcp", "add", "--transport", "http", input.name, input.mcpUrl].map(shellWord).join(" ") });
    out.push({ title: "MCP Inspector", language: "text", text: `Transport Type: Streamable HTTP\nURL: ${input.mcpUrl}` });
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
  return out;
}
