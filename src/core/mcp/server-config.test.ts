import { describe, expect, it } from "vitest";
import { stripJsonComments } from "./jsonc.ts";
import { MAX_CONFIG_CHARS, MAX_CONFIG_SERVERS, parseServersConfig, type ServersConfig } from "./server-config.ts";
import { formatServersConfig } from "./server-config-format.ts";

function read(text: string): ServersConfig {
  const result = parseServersConfig(text);
  if (!result.ok) throw new Error(result.error);
  return result.config;
}

function refused(text: string): string {
  const result = parseServersConfig(text);
  if (result.ok) throw new Error("expected the file to be refused");
  return result.error;
}

const CLAUDE = `{
  "globalShortcut": "Ctrl+Space",
  "mcpServers": {
    "filesystem": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"] },
    "github": { "command": "docker", "args": ["run", "-i", "ghcr.io/github/github-mcp-server"], "env": { "GITHUB_TOKEN": "ghp_secret" } },
    "remote": { "type": "http", "url": "https://mcp.example.com/mcp", "headers": { "Authorization": "Bearer abc" } },
    "legacy": { "type": "sse", "url": "http://127.0.0.1:3001/sse" }
  }
}`;

describe("reading an mcpServers file (Claude Desktop)", () => {
  it("reads every kind of entry into one list, and says which top-level fields it ignored", () => {
    expect(read(CLAUDE)).toEqual({
      shape: "mcpServers",
      servers: [
        { name: "filesystem", transport: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], env: {}, extra: {} },
        { name: "github", transport: "stdio", command: "docker", args: ["run", "-i", "ghcr.io/github/github-mcp-server"], env: { GITHUB_TOKEN: "ghp_secret" }, extra: {} },
        { name: "remote", transport: "streamable-http", url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer abc" }, extra: {} },
        { name: "legacy", transport: "sse", url: "http://127.0.0.1:3001/sse", headers: {}, extra: {} },
      ],
      rejected: [],
      warnings: [{ message: "Ignored top-level fields: globalShortcut." }],
    });
  });

  it("writes the same servers back as Claude Desktop, Cursor and VS Code files", () => {
    const { servers } = read(CLAUDE);
    expect(formatServersConfig(servers, "claude")).toBe(`{
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": [
        "-y",
        "@modelcontextprotocol/server-filesystem",
        "/tmp"
      ]
    },
    "github": {
      "command": "docker",
      "args": [
        "run",
        "-i",
        "ghcr.io/github/github-mcp-server"
      ],
      "env": {
        "GITHUB_TOKEN": "ghp_secret"
      }
    },
    "remote": {
      "type": "http",
      "url": "https://mcp.example.com/mcp",
      "headers": {
        "Authorization": "Bearer abc"
      }
    },
    "legacy": {
      "type": "sse",
      "url": "http://127.0.0.1:3001/sse"
    }
  }
}
`);
    const cursor = JSON.parse(formatServersConfig(servers, "cursor")) as { mcpServers: Record<string, unknown> };
    expect(cursor.mcpServers.remote).toEqual({ url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer abc" } });
    expect(cursor.mcpServers.legacy).toEqual({ type: "sse", url: "http://127.0.0.1:3001/sse" });
    const vscode = JSON.parse(formatServersConfig(servers, "vscode")) as { servers: Record<string, unknown>; inputs?: unknown };
    expect(vscode.servers.filesystem).toEqual({ type: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"] });
    expect(vscode.servers.remote).toEqual({ type: "http", url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer abc" } });
    expect(vscode.inputs).toBeUndefined();
  });

  it("round-trips: what is written reads back to the same servers", () => {
    const { servers } = read(CLAUDE);
    for (const flavour of ["claude", "cursor", "vscode"] as const) {
      expect(read(formatServersConfig(servers, flavour)).servers).toEqual(servers);
    }
  });
});

describe("reading Cursor and VS Code files", () => {
  it("takes a Cursor url entry without a type as Streamable HTTP, and one ending in /sse as legacy SSE with a warning", () => {
    const config = read('{"mcpServers":{"a":{"url":"https://x.example/mcp","headers":{"X-Api-Key":"k"}},"b":{"url":"https://x.example/sse"}}}');
    expect(config.servers.map((s) => [s.name, s.transport])).toEqual([["a", "streamable-http"], ["b", "sse"]]);
    expect(config.warnings).toEqual([{ server: "b", message: 'No "type": the URL ends in /sse, so it is taken as a legacy HTTP+SSE server.' }]);
  });

  const VSCODE = `{
  // Workspace servers
  "inputs": [
    { "type": "promptString", "id": "api-key", "description": "Perplexity API key", "password": true },
  ],
  "servers": {
    "perplexity": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "server-perplexity-ask"],
      "env": { "PERPLEXITY_API_KEY": "\${input:api-key}" },
      "envFile": "\${workspaceFolder}/.env", /* not read */
    },
    "github": { "type": "http", "url": "https://api.githubcopilot.com/mcp/" },
  },
}`;

  it("reads a VS Code mcp.json with comments, trailing commas and inputs, keeping placeholders verbatim with a warning", () => {
    const config = read(VSCODE);
    expect(config.shape).toBe("servers");
    expect(config.rejected).toEqual([]);
    const input = { type: "promptString", id: "api-key", description: "Perplexity API key", password: true };
    expect(config.servers).toEqual([
      {
        name: "perplexity",
        transport: "stdio",
        command: "npx",
        args: ["-y", "server-perplexity-ask"],
        env: { PERPLEXITY_API_KEY: "${input:api-key}" },
        extra: { envFile: "${workspaceFolder}/.env" },
        inputs: [input],
      },
      { name: "github", transport: "streamable-http", url: "https://api.githubcopilot.com/mcp/", headers: {}, extra: {} },
    ]);
    expect(config.warnings).toEqual([
      { server: "perplexity", message: "Kept but not used here: envFile." },
      { server: "perplexity", message: 'env.PERPLEXITY_API_KEY uses ${input:api-key} (VS Code asks for "Perplexity API key"); it is kept as written, so give the real value before connecting.' },
    ]);
    // Written back for VS Code, the kept field and the input definition come along.
    expect(JSON.parse(formatServersConfig(config.servers, "vscode"))).toEqual({
      servers: {
        perplexity: { type: "stdio", command: "npx", args: ["-y", "server-perplexity-ask"], env: { PERPLEXITY_API_KEY: "${input:api-key}" }, envFile: "${workspaceFolder}/.env" },
        github: { type: "http", url: "https://api.githubcopilot.com/mcp/" },
      },
      inputs: [input],
    });
  });

  it("reads VS Code's settings.json form and a bare map of servers", () => {
    expect(read('{"editor.fontSize": 14, "mcp": {"servers": {"x": {"type": "stdio", "command": "node"}}}}').servers).toEqual([
      { name: "x", transport: "stdio", command: "node", args: [], env: {}, extra: {} },
    ]);
    const bare = read('{"x": {"command": "node", "args": ["s.js"]}, "y": {"url": "http://127.0.0.1:1/mcp"}}');
    expect(bare.shape).toBe("map");
    expect(bare.servers.map((s) => s.name)).toEqual(["x", "y"]);
  });

  it("warns about variables it does not expand and inputs the file does not define", () => {
    const config = read('{"mcpServers":{"a":{"command":"node","args":["${workspaceFolder}/s.js"],"env":{"K":"${input:missing}"}}}}');
    expect(config.warnings.map((w) => w.message)).toEqual([
      "args[0] uses ${workspaceFolder}, a variable Patchbay does not expand; it is sent as written, so replace it before connecting.",
      'env.K refers to ${input:missing}, which the file\'s "inputs" do not define; it is sent as written, so replace it before connecting.',
    ]);
    expect(config.servers[0]).not.toHaveProperty("inputs");
  });
});

describe("bad entries are reported by name and the good ones still come through", () => {
  it("names each bad entry with a plain reason", () => {
    const config = read(`{"mcpServers": {
      "good": {"command": "node"},
      "numArg": {"command": "node", "args": ["a", 3]},
      "numEnv": {"command": "node", "env": {"PORT": 3000}},
      "both": {"command": "node", "url": "http://x"},
      "none": {"args": []},
      "ftp": {"url": "ftp://x.example/"},
      "badType": {"type": "websocket", "url": "ws://x"},
      "notObject": "npx server",
      "emptyCommand": {"command": "  "},
      "badHeaders": {"url": "http://x.example/mcp", "headers": ["Authorization: x"]},
      "proto": {"command": "node", "env": {"__proto__": {"polluted": "yes"}}}
    }}`);
    expect(config.servers.map((s) => s.name)).toEqual(["good"]);
    expect(config.rejected).toEqual([
      { server: "numArg", message: "args[1] is a number (3); every argument must be a string." },
      { server: "numEnv", message: "env.PORT is a number (3000); environment values must be strings." },
      { server: "both", message: 'It has both "command" and "url"; add "type" to say which to use.' },
      { server: "none", message: 'It has neither "command" (a local server) nor "url" (a remote one).' },
      { server: "ftp", message: '"url" must start with http:// or https://, not ftp://.' },
      { server: "badType", message: 'Unknown "type" "websocket"; expected stdio, http, streamable-http or sse.' },
      { server: "notObject", message: 'The settings must be an object, not the string "npx server".' },
      { server: "emptyCommand", message: '"command" must be a non-empty string, not the string "  ".' },
      { server: "badHeaders", message: '"headers" must be an object of strings, not a list.' },
      { server: "proto", message: 'The settings contain a "__proto__" key, which is refused.' },
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses a server named __proto__ without touching any prototype", () => {
    const config = read('{"mcpServers": {"__proto__": {"command": "evil"}, "ok": {"command": "node"}}}');
    expect(config.rejected).toEqual([{ server: "__proto__", message: '"__proto__" cannot name a server.' }]);
    expect(config.servers.map((s) => s.name)).toEqual(["ok"]);
    expect(({} as Record<string, unknown>).command).toBeUndefined();
  });

  it("keeps a field meant for the other transport, and says so", () => {
    const config = read('{"mcpServers": {"a": {"type": "stdio", "command": "node", "headers": {"X": "1"}, "disabled": true}}}');
    expect(config.servers[0]).toMatchObject({ transport: "stdio", extra: { headers: { X: "1" }, disabled: true } });
    expect(config.warnings).toEqual([{ server: "a", message: "Kept but not used here: headers, disabled." }]);
    expect(JSON.parse(formatServersConfig(config.servers, "claude"))).toEqual({ mcpServers: { a: { command: "node", headers: { X: "1" }, disabled: true } } });
  });
});

describe("files that cannot be read at all get one clear error", () => {
  it("refuses what is not a config", () => {
    expect(refused("")).toBe("The file is empty.");
    expect(refused("{ nope")).toMatch(/^The file is not JSON: .+ \(line 1, column 3\)\.$/);
    expect(refused("[1, 2]")).toBe("The file must hold a JSON object with an mcpServers or servers map.");
    expect(refused('{"mcpServers": ["a"]}')).toBe('"mcpServers" must be an object mapping server names to their settings, not a list.');
    expect(refused('{"command": "npx", "args": []}')).toBe('This looks like one server entry, not a map of servers: wrap it as {"mcpServers": {"a-name": …}}.');
  });

  it("refuses hostile sizes before parsing: huge files, deep nesting, too many servers", () => {
    expect(refused(" ".repeat(MAX_CONFIG_CHARS + 1))).toBe(`The file has ${MAX_CONFIG_CHARS + 1} characters; an MCP client config is read up to ${MAX_CONFIG_CHARS}.`);
    const deep = `{"mcpServers": {"a": {"command": "x", "extra": ${"[".repeat(5000)}${"]".repeat(5000)}}}}`;
    expect(refused(deep)).toMatch(/^The file is not JSON: Nesting is deeper than the limit of 32 levels/);
    const many = JSON.stringify({ mcpServers: Object.fromEntries(Array.from({ length: MAX_CONFIG_SERVERS + 1 }, (_, i) => [`s${i}`, { command: "x" }])) });
    expect(refused(many)).toBe(`The file lists ${MAX_CONFIG_SERVERS + 1} servers; at most ${MAX_CONFIG_SERVERS} are read at once.`);
  });

  it("an empty map is read, with a note that there is nothing in it", () => {
    expect(read('{"mcpServers": {}}')).toEqual({ shape: "mcpServers", servers: [], rejected: [], warnings: [{ message: "The file lists no servers." }] });
  });
});

describe("writing", () => {
  it("gives a name used twice a suffix instead of dropping the entry", () => {
    const one = { name: "x", transport: "stdio", command: "a", args: [], env: {}, extra: {} } as const;
    const text = formatServersConfig([one, { ...one, command: "b" }, { ...one, command: "c" }], "claude");
    expect(Object.keys((JSON.parse(text) as { mcpServers: object }).mcpServers)).toEqual(["x", "x-2", "x-3"]);
  });
});

describe("stripJsonComments", () => {
  it("blanks comments and trailing commas, keeps strings and line positions", () => {
    expect(stripJsonComments('{"a": "http://x//y", /* c */ "b": [1, 2,],\n// end\n}')).toBe('{"a": "http://x//y",         "b": [1, 2 ] \n      \n}');
    expect(stripJsonComments('{"a": "\\"//"}')).toBe('{"a": "\\"//"}');
  });
});
