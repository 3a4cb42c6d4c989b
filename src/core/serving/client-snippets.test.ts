import { describe, expect, it } from "vitest";
import { clientSnippets } from "./client-snippets.ts";

describe("clientSnippets", () => {
  it("writes a Claude Desktop config that parses back to the stdio command", () => {
    const snippets = clientSnippets({ name: "demo", stdio: { command: "/usr/bin/node", args: ["/opt/patch bay/bin/patchbay.mjs", "serve", "--stdio"] } });
    const desktop = JSON.parse(snippets[0]?.text ?? "{}") as { mcpServers: Record<string, unknown> };
    expect(desktop.mcpServers.demo).toEqual({ command: "/usr/bin/node", args: ["/opt/patch bay/bin/patchbay.mjs", "serve", "--stdio"] });
    expect(snippets[1]?.text).toBe("claude mcp add demo -- /usr/bin/node '/opt/patch bay/bin/patchbay.mjs' serve --stdio");
  });

  it("writes HTTP and NATS snippets only for the surfaces that run", () => {
    const http = clientSnippets({ name: "demo", mcpUrl: "http://127.0.0.1:4000/mcp" });
    expect(http.map((s) => s.title)).toEqual(["Claude Code, Streamable HTTP", "MCP Inspector", "VS Code / Cursor (mcp.json)"]);
    expect(http[0]?.text).toBe("claude mcp add --transport http demo http://127.0.0.1:4000/mcp");
    const nats = clientSnippets({ name: "demo", identity: "demo" });
    expect(nats[0]?.text).toBe("remote_tools:\n  - name: demo\n");
    expect(nats[1]?.text).toContain("choria.fisk-ai.tool.demo");
    expect(clientSnippets({ name: "x" })).toEqual([]);
  });
});
