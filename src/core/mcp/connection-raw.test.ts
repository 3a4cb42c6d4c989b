import { describe, expect, it } from "vitest";
import { McpConnectError } from "./connect-failure.ts";
import { McpConnection } from "./connection.ts";
import { INITIALIZED, linked, rawServer, type RawServerOptions, scriptedPeer, WireError } from "./test-servers.ts";

const clientInfo = { name: "patchbay-test", version: "0.0.0" };
const tool = (name: string, extra: Record<string, unknown> = {}) => ({ name, inputSchema: { type: "object" }, ...extra });

async function connected(options: RawServerOptions) {
  const connection = new McpConnection();
  await connection.connect(await linked(rawServer(options)), { clientInfo });
  return connection;
}

async function connectFailure(options: RawServerOptions): Promise<McpConnectError> {
  const attempt = new McpConnection().connect(await linked(rawServer(options)), { clientInfo, timeoutMs: 200 });
  const error = await attempt.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpConnectError);
  return error as McpConnectError;
}

describe("McpConnection against a server that answers as told", () => {
  it("follows nextCursor across pages", async () => {
    const connection = await connected({ pages: [{ tools: [tool("a"), tool("b")], nextCursor: "1" }, { tools: [tool("c")], nextCursor: "2" }, { tools: [tool("d")] }] });
    expect((await connection.listTools()).map((t) => t.name)).toEqual(["a", "b", "c", "d"]);
  });

  it("stops a server that repeats a cursor, naming it", async () => {
    const connection = await connected({ pages: [{ tools: [tool("a")], nextCursor: "1" }, { tools: [tool("b")], nextCursor: "1" }] });
    await expect(connection.listTools()).rejects.toThrow('tools/list page 2: the server repeated cursor "1", which would loop forever');
  });

  it("names a JSON-RPC error a JSON-RPC error, with the server's own code, message and data", async () => {
    const connection = await connected({ call: ({ name }) => new WireError(-32602, `Unknown tool: ${name}`, { known: ["a"] }) });
    expect(await connection.callTool("nope", {})).toEqual({ kind: "json-rpc-error", code: -32602, message: "Unknown tool: nope", data: { known: ["a"] } });
  });

  it("checks structuredContent against the listed outputSchema and places each issue", async () => {
    const outputSchema = { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] };
    const connection = await connected({ pages: [{ tools: [tool("add", { outputSchema })] }], call: () => ({ content: [], structuredContent: { sum: "five" } }) });
    await connection.listTools();
    const outcome = await connection.callTool("add", { a: 2, b: 3 });
    expect(outcome.kind).toBe("success");
    if (outcome.kind !== "success") return;
    expect(outcome.structuredContentIssues).toEqual([expect.objectContaining({ pointer: "/result/structuredContent/sum", severity: "error", source: "tool-schema" })]);
  });

  it("flags a result that omits structuredContent its tool's outputSchema promises", async () => {
    const connection = await connected({ pages: [{ tools: [tool("add", { outputSchema: { type: "object" } })] }], call: () => ({ content: [] }) });
    await connection.listTools();
    const outcome = await connection.callTool("add", {});
    expect(outcome).toMatchObject({ kind: "success", structuredContentIssues: [{ rule: "mcp.structured-content", pointer: "/result" }] });
  });

  it("skips the outputSchema check for a tool error", async () => {
    const connection = await connected({ pages: [{ tools: [tool("add", { outputSchema: { type: "object" } })] }], call: () => ({ content: [], isError: true }) });
    await connection.listTools();
    expect(await connection.callTool("add", {})).toEqual({ kind: "tool-error", result: { content: [], isError: true } });
  });

  it("names a result that is not a CallToolResult invalid, with the schema's reasons", async () => {
    const connection = new McpConnection();
    const peer = scriptedPeer((r) => (r.method === "initialize" ? INITIALIZED : { result: { content: "not an array" } }));
    expect((await connection.connect(peer, { clientInfo })).negotiatedVersion).toBe("2025-06-18");
    const outcome = await connection.callTool("x", {});
    expect(outcome.kind).toBe("invalid-result");
    if (outcome.kind !== "invalid-result") return;
    expect(outcome.result).toEqual({ content: "not an array" });
    expect(outcome.issues.some((i) => i.pointer === "/content")).toBe(true);
  });

  it("refuses a protocol version the client cannot speak, with the raw answer", async () => {
    const error = await connectFailure({ initialize: () => ({ protocolVersion: "1999-01-01", capabilities: {}, serverInfo: { name: "old", version: "1" } }) });
    expect(error.failure.step).toBe("version-refused");
    expect(error.failure.message).toContain("1999-01-01");
    expect(error.failure.raw).toContain('"protocolVersion":"1999-01-01"');
  });

  it("names a server's refusal of the requested version as such", async () => {
    const error = await connectFailure({ initialize: (v) => new WireError(-32602, "Unsupported protocol version", { supported: ["2024-11-05"], requested: v }) });
    expect(error.failure).toMatchObject({ step: "version-refused", message: expect.stringContaining("Unsupported protocol version (code -32602)") });
    expect(JSON.parse(error.failure.raw!)).toEqual({ code: -32602, message: "Unsupported protocol version", data: { supported: ["2024-11-05"], requested: "2025-11-25" } });
  });

  it("names any other initialize error, and a malformed initialize result", async () => {
    const refused = await connectFailure({ initialize: () => new WireError(-32603, "database offline") });
    expect(refused.failure).toMatchObject({ step: "initialize", message: "the server answered initialize with an error: database offline (code -32603)" });
    const malformed = await connectFailure({ initialize: () => ({ protocolVersion: "2025-06-18" }) });
    expect(malformed.failure.step).toBe("initialize");
    expect(malformed.failure.message).toMatch(/initialize result is malformed/);
  });

  it("names a server that never answers initialize a timeout", async () => {
    const error = await connectFailure({ initialize: () => new Promise(() => {}) as never });
    expect(error.failure).toEqual({ step: "timeout", message: "no answer to initialize within 200 ms" });
  });
});
