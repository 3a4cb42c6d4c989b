/**
 * A server list written as the config file of one MCP client. Claude Desktop and Cursor read
 * `{"mcpServers": …}`; VS Code reads `{"servers": …}` with an explicit `type` on every entry
 * and the `inputs` its `${input:…}` placeholders refer to.
 */
import type { ServerEntry } from "./server-config.ts";

export type ConfigFlavour = "claude" | "cursor" | "vscode";

export const CONFIG_FLAVOURS: readonly { readonly id: ConfigFlavour; readonly label: string; readonly fileName: string }[] = [
  { id: "claude", label: "Claude Desktop (mcpServers)", fileName: "claude_desktop_config.json" },
  { id: "cursor", label: "Cursor (mcpServers)", fileName: "mcp.json" },
  { id: "vscode", label: "VS Code (servers)", fileName: "mcp.json" },
];

/** One entry as the flavour writes it; fields kept from an import follow the known ones. */
export function entryJson(entry: ServerEntry, flavour: ConfigFlavour): Record<string, unknown> {
  const known: [string, unknown][] = [];
  if (entry.transport === "stdio") {
    if (flavour === "vscode") known.push(["type", "stdio"]);
    known.push(["command", entry.command]);
    if (entry.args.length > 0) known.push(["args", [...entry.args]]);
    if (Object.keys(entry.env).length > 0) known.push(["env", { ...entry.env }]);
    if (entry.cwd !== undefined) known.push(["cwd", entry.cwd]);
  } else {
    const type = entry.transport === "sse" ? "sse" : flavour === "cursor" ? undefined : "http";
    if (type !== undefined) known.push(["type", type]);
    known.push(["url", entry.url]);
    if (Object.keys(entry.headers).length > 0) known.push(["headers", { ...entry.headers }]);
  }
  // fromEntries defines own properties, so no key (not even "__proto__") reaches a prototype.
  return Object.fromEntries([...known, ...Object.entries(entry.extra).filter(([k]) => !known.some(([n]) => n === k))]);
}

/** The whole file, pretty-printed; a name used twice gets `-2`, `-3`… so no entry is lost. */
export function formatServersConfig(servers: readonly ServerEntry[], flavour: ConfigFlavour): string {
  const taken = new Set<string>();
  const pairs: [string, Record<string, unknown>][] = [];
  const inputs = new Map<string, Readonly<Record<string, unknown>>>();
  for (const entry of servers) {
    let name = entry.name;
    for (let n = 2; taken.has(name); n++) name = `${entry.name}-${n}`;
    taken.add(name);
    pairs.push([name, entryJson(entry, flavour)]);
    for (const input of entry.inputs ?? []) if (typeof input.id === "string" && !inputs.has(input.id)) inputs.set(input.id, input);
  }
  const map = Object.fromEntries(pairs);
  const root = flavour === "vscode" ? { servers: map, ...(inputs.size > 0 ? { inputs: [...inputs.values()] } : {}) } : { mcpServers: map };
  return `${JSON.stringify(root, null, 2)}\n`;
}
