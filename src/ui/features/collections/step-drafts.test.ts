import { describe, expect, it } from "vitest";
import { appendStep, emptyCollection, parseCollection } from "../../../core/harness/index.ts";
import { identifierFrom, mcpTarget, mcpToolCallRequest, quoteWord, withSecrets } from "./step-drafts.ts";

describe("quoteWord", () => {
  // The harness splits a command line as a POSIX shell splits words (without running a shell).
  it("quotes what a shell would split or interpret, and nothing else", () => {
    const words = ["/usr/bin/node", "/tmp/my dir/index.js", "it's", "a$b", "`x`", "semi;colon", "", "--flag=1", "~home", "tab\there"];
    expect(words.map(quoteWord).join(" ")).toBe(`/usr/bin/node '/tmp/my dir/index.js' 'it'\\''s' 'a$b' '\`x\`' 'semi;colon' '' --flag=1 '~home' 'tab\there'`);
    expect(quoteWord("/usr/bin/node")).toBe("/usr/bin/node");
    expect(quoteWord("it's")).toBe(`'it'\\''s'`);
  });
});

describe("identifierFrom", () => {
  it("makes a {{name}} from any text", () => {
    expect(identifierFrom("mcp-servers/everything Authorization")).toBe("mcp_servers_everything_authorization");
    expect(identifierFrom("9 lives")).toBe("s_9_lives");
    expect(identifierFrom("!!!")).toBe("s_");
  });
});

describe("mcpTarget", () => {
  it("writes a stdio server as one quoted command line and leaves its environment out, saying so", () => {
    const { target, secrets, notes } = mcpTarget({ transport: "stdio", command: "/usr/bin/node", args: ["/opt/my server/index.js", "stdio"], env: { API_KEY: "sk-1" }, cwd: "/tmp" }, "everything");
    expect(target).toEqual({ protocol: "mcp", command: "/usr/bin/node '/opt/my server/index.js' stdio" });
    expect(secrets).toEqual({});
    expect(notes.join(" ")).toContain("API_KEY");
    expect(JSON.stringify(target)).not.toContain("sk-1");
  });

  it("turns credential headers into secret references (keeping the auth scheme) and keeps the rest", () => {
    const { target, secrets } = mcpTarget(
      { transport: "streamable-http", url: "https://example.test/mcp", headers: { Authorization: "Bearer abc123", "X-Api-Key": "k-9", "X-Trace": "on" } },
      "Example Server",
    );
    expect(target).toEqual({ protocol: "mcp", url: "https://example.test/mcp", headers: { Authorization: "Bearer {{example_server_token}}", "X-Api-Key": "{{example_server_x_api_key}}", "X-Trace": "on" } });
    expect(secrets).toEqual({
      example_server_token: { env: "EXAMPLE_SERVER_TOKEN", description: "The Authorization header of Example Server" },
      example_server_x_api_key: { env: "EXAMPLE_SERVER_X_API_KEY", description: "The X-Api-Key header of Example Server" },
    });
    expect(JSON.stringify(target)).not.toMatch(/abc123|k-9/);
  });
});

describe("mcpToolCallRequest", () => {
  const http = { transport: "streamable-http", url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer t0ken" } } as const;

  it("describes a tools/call that saves into a collection the checker accepts, secrets declared", () => {
    const made = mcpToolCallRequest(http, "everything", "echo", '{"message":"hi"}');
    if (!made.ok) throw new Error(made.error);
    expect(made.request.draft.action).toEqual({ protocol: "mcp", method: "tools/call", params: { name: "echo", arguments: { message: "hi" } } });
    const saved = withSecrets(appendStep(emptyCollection("c"), made.request.draft), made.request.secrets);
    expect(parseCollection(saved)).toMatchObject({ ok: true });
    // Saving the same call again reuses the target and the secret.
    const again = withSecrets(appendStep(saved, made.request.draft), made.request.secrets);
    expect(Object.keys(again.targets)).toHaveLength(1);
    expect(again.steps.map((s) => s.name)).toEqual(["echo", "echo 2"]);
    expect(again.secrets).toEqual(saved.secrets);
  });

  it("a stdio call saves into a valid collection too", () => {
    const made = mcpToolCallRequest({ transport: "stdio", command: "node", args: ["everything.js", "stdio"] }, "mcp-servers/everything", "echo", "");
    if (!made.ok) throw new Error(made.error);
    expect(made.request.draft.action).toMatchObject({ params: { arguments: {} } });
    expect(parseCollection(appendStep(emptyCollection("c"), made.request.draft))).toMatchObject({ ok: true });
  });

  it("refuses arguments that are not a JSON object, saying why", () => {
    expect(mcpToolCallRequest(http, "s", "echo", "{oops")).toMatchObject({ ok: false, error: expect.stringMatching(/^the arguments are not JSON/) });
    expect(mcpToolCallRequest(http, "s", "echo", "[1]")).toEqual({ ok: false, error: "the arguments must be a JSON object" });
    expect(mcpToolCallRequest(http, "s", "echo", "null")).toEqual({ ok: false, error: "the arguments must be a JSON object" });
  });
});

describe("withSecrets", () => {
  it("declares only the secrets missing, never replacing one already declared", () => {
    const c = { ...emptyCollection("c"), secrets: { a: { env: "MINE" } } };
    expect(withSecrets(c, { a: { env: "OTHER" }, b: { env: "B" } }).secrets).toEqual({ a: { env: "MINE" }, b: { env: "B" } });
    expect(withSecrets(c, { a: { env: "OTHER" } })).toBe(c);
  });
});
