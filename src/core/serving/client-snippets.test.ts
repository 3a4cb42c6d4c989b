import { describe, expect, it } from "vitest";
import { shellWords } from "../../../tests/helpers/shell-words.ts";
import { testAgent } from "./a2a/test-harness.ts";
import { a2aSendBody, clientSnippets } from "./client-snippets.ts";

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
    expect(http[1]?.text).toBe("Transport Type: Streamable HTTP\nURL: http://127.0.0.1:4000/mcp\nProtocol era: auto, legacy or modern (this URL serves 2024-11-05 … 2025-11-25 and 2026-07-28)");
    const nats = clientSnippets({ name: "demo", identity: "demo" });
    expect(nats[0]?.text).toBe("remote_tools:\n  - name: demo\n");
    expect(nats[1]?.text).toContain("choria.fisk-ai.tool.demo");
    expect(clientSnippets({ name: "x" })).toEqual([]);
  });
});

describe("clientSnippets for the A2A agent", () => {
  const a2a = { cardUrl: "http://127.0.0.1:7422/.well-known/agent-card.json", jsonRpcUrl: "http://127.0.0.1:7422/a2a/jsonrpc" };
  const byTitle = (snippets: readonly { title: string; text: string }[], title: string) => snippets.find((s) => s.title === title)?.text ?? "";

  it("names the card, the call command, a curl message/send and the A2A Inspector, only while A2A runs", () => {
    const patchbay = ["/usr/bin/node", "/opt/patchbay/bin/patchbay.mjs"];
    const snippets = clientSnippets({ name: "demo", patchbay, a2a: { ...a2a, echoArgument: "message" } });
    expect(snippets.map((s) => s.title)).toEqual(["A2A Agent Card", "Patchbay, call a2a", "curl, JSON-RPC message/send (v0.3)", "A2A Inspector"]);
    expect(byTitle(snippets, "A2A Agent Card")).toBe(a2a.cardUrl);
    expect(byTitle(snippets, "Patchbay, call a2a")).toBe(`/usr/bin/node /opt/patchbay/bin/patchbay.mjs call a2a ${a2a.cardUrl} hello`);
    expect(byTitle(snippets, "A2A Inspector")).toContain(`Agent URL: ${a2a.cardUrl}`);
    expect(clientSnippets({ name: "demo", mcpUrl: "http://127.0.0.1:4000/mcp" }).some((s) => s.title.startsWith("A2A"))).toBe(false);
  });

  it("runs Patchbay the way the backend's stdio command does, when it is known", () => {
    const stdio = { command: "/usr/bin/node", args: ["/opt/patch bay/bin/patchbay.mjs", "serve", "--stdio", "/ws/kit.json"] };
    const text = byTitle(clientSnippets({ name: "demo", stdio, a2a }), "Patchbay, call a2a");
    expect(text).toBe(`/usr/bin/node '/opt/patch bay/bin/patchbay.mjs' call a2a ${a2a.cardUrl} hello`);
    expect(shellWords(text)).toEqual(["/usr/bin/node", "/opt/patch bay/bin/patchbay.mjs", "call", "a2a", a2a.cardUrl, "hello"]);
  });

  it("never tells anyone to run a bare patchbay or npx patchbay: without a known command the call snippet is left out", () => {
    const stdio = { command: "/usr/bin/node", args: ["/opt/patchbay/bin/patchbay.mjs", "serve", "--stdio"] };
    const every = [
      clientSnippets({ name: "demo", a2a }),
      clientSnippets({ name: "demo", mcpUrl: "http://127.0.0.1:4000/mcp", identity: "demo", a2a }),
      clientSnippets({ name: "demo", stdio, mcpUrl: "http://127.0.0.1:4000/mcp", identity: "demo", a2a }),
      clientSnippets({ name: "demo", patchbay: ["/usr/bin/node", "/opt/patchbay/bin/patchbay.mjs"], identity: "demo", a2a }),
    ];
    expect(every[0]!.map((s) => s.title)).toEqual(["A2A Agent Card", "curl, JSON-RPC message/send (v0.3)", "A2A Inspector"]);
    for (const snippets of every) {
      for (const snippet of snippets) {
        const words = snippet.language === "shell" ? shellWords(snippet.text) : [];
        expect(snippet.text, snippet.title).not.toMatch(/npx\s+(?:-y\s+)?patchbay\b|"command"\s*:\s*"npx"/);
        expect(words[0], snippet.title).not.toBe("patchbay");
        // Wherever a command line runs Patchbay, it is node on the clone's bin/patchbay.mjs.
        const at = words.findIndex((w) => w.endsWith("patchbay.mjs"));
        if (at >= 0) expect(words.slice(at - 1, at + 1), snippet.title).toEqual(["/usr/bin/node", "/opt/patchbay/bin/patchbay.mjs"]);
      }
    }
  });

  it("posts valid JSON to the JSON-RPC URL: a data part for echo when it is served, else a text part", () => {
    const curlWords = (input: typeof a2a & { echoArgument?: string }) => shellWords(byTitle(clientSnippets({ name: "demo", a2a: input }), "curl, JSON-RPC message/send (v0.3)"));
    const words = curlWords({ ...a2a, echoArgument: "message" });
    expect(words.slice(0, 6)).toEqual(["curl", "-sS", a2a.jsonRpcUrl, "-H", "Content-Type: application/json", "-d"]);
    expect(words).toHaveLength(7);
    const body = JSON.parse(words[6] ?? "") as Record<string, unknown>;
    expect(body).toMatchObject({ jsonrpc: "2.0", method: "message/send", params: { message: { kind: "message", role: "user", parts: [{ kind: "data", data: { skill: "echo", arguments: { message: "hello" } } }] } } });
    const text = JSON.parse(curlWords(a2a)[6] ?? "") as { params: { message: { parts: unknown[] } } };
    expect(text.params.message.parts).toEqual([{ kind: "text", text: "hello" }]);
  });

  it("the curl body runs echo on the real served agent, and the text one runs its default skill", async () => {
    const agent = testAgent();
    try {
      for (const input of [{ ...a2a, echoArgument: "message" }, a2a]) {
        const answer = await agent.jsonRpc.answer(a2aSendBody(input), {});
        expect(answer.kind).toBe("json");
        const body = (answer as { body: { result?: Record<string, unknown> } }).body;
        expect(body.result).toMatchObject({ kind: "task", status: { state: "completed" }, artifacts: [{ parts: [{ kind: "text", text: "hello" }] }] });
      }
    } finally {
      await agent.close();
    }
  });
});
