import { describe, expect, it } from "vitest";
import { McpConnection } from "./connection.ts";
import type { ConnectOptions } from "./connection-types.ts";
import { linked, toolServer } from "./test-servers.ts";

const clientInfo = { name: "patchbay-test", version: "0.0.0" };

async function connected(options: Partial<ConnectOptions> = {}) {
  const connection = new McpConnection();
  const info = await connection.connect(await linked(toolServer()), { clientInfo, ...options });
  return { connection, info };
}

describe("McpConnection over an McpServer", () => {
  it("initializes with the newest version by default and reports the server", async () => {
    const { info } = await connected();
    expect(info).toMatchObject({
      serverInfo: { name: "test-tools", version: "1.2.3" },
      instructions: "Use add for sums.",
      requestedVersion: "2025-11-25",
      negotiatedVersion: "2025-11-25",
    });
    expect(info.capabilities.tools).toBeDefined();
    expect(info.capabilities.logging).toEqual({});
  });

  it("asks for the version the user chose, and shows what was negotiated", async () => {
    const { info } = await connected({ protocolVersion: "2024-11-05" });
    expect(info.requestedVersion).toBe("2024-11-05");
    expect(info.negotiatedVersion).toBe("2024-11-05");
  });

  it("lists tools with their schemas as the server sent them", async () => {
    const { connection } = await connected();
    const tools = await connection.listTools();
    expect(tools.map((t) => t.name)).toEqual(["echo", "add", "fails", "throws", "slow", "hang", "confirm", "shout"]);
    expect(tools[1]).toMatchObject({ outputSchema: { type: "object", properties: { sum: { type: "number" } } } });
  });

  it("names success, with structuredContent checked against the outputSchema", async () => {
    const { connection } = await connected();
    await connection.listTools();
    expect(await connection.callTool("echo", { message: "hi" })).toEqual({
      kind: "success",
      result: { content: [{ type: "text", text: "Echo: hi" }] },
      structuredContentIssues: [],
    });
    const add = await connection.callTool("add", { a: 2, b: 3 });
    expect(add).toMatchObject({ kind: "success", result: { structuredContent: { sum: 5 } }, structuredContentIssues: [] });
  });

  it("names a tool that ran and failed a tool error, whether it reported it or threw", async () => {
    const { connection } = await connected();
    expect(await connection.callTool("fails", {})).toEqual({ kind: "tool-error", result: { content: [{ type: "text", text: "disk full" }], isError: true } });
    const thrown = await connection.callTool("throws", {});
    expect(thrown.kind).toBe("tool-error");
    expect(JSON.stringify(thrown)).toContain("kaboom");
  });

  it("passes progress through and still returns the result", async () => {
    const { connection } = await connected();
    const seen: unknown[] = [];
    const outcome = await connection.callTool("slow", { steps: 3 }, { onProgress: (p) => seen.push(p), meta: { trace: "t1" } });
    expect(outcome.kind).toBe("success");
    expect(seen).toEqual([1, 2, 3].map((i) => ({ progress: i, total: 3, message: `step ${i}` })));
  });

  it("names a timeout and a cancellation as no answer, not as errors from the server", async () => {
    const { connection } = await connected();
    expect(await connection.callTool("hang", {}, { timeoutMs: 30 })).toEqual({ kind: "timeout", timeoutMs: 30 });
    const controller = new AbortController();
    const pending = connection.callTool("hang", {}, { signal: controller.signal });
    controller.abort("user pressed stop");
    expect(await pending).toEqual({ kind: "cancelled", reason: "user pressed stop" });
  });

  it("answers an elicitation request through the handler", async () => {
    const asked: unknown[] = [];
    const { connection } = await connected({
      capabilities: { elicitation: true },
      handlers: {
        elicitation: async (params) => {
          asked.push(params);
          return { action: "accept", content: { approve: true } };
        },
      },
    });
    const outcome = await connection.callTool("confirm", {});
    expect(asked).toEqual([expect.objectContaining({ message: "Proceed?" })]);
    expect(outcome).toMatchObject({ kind: "success", result: { content: [{ text: '{"action":"accept","content":{"approve":true}}' }] } });
  });

  it("without the elicitation capability, the tool's elicitation fails and the call says so", async () => {
    const { connection } = await connected();
    const outcome = await connection.callTool("confirm", {});
    expect(outcome.kind).toBe("tool-error");
    expect(JSON.stringify(outcome)).toMatch(/elicitation/i);
  });

  it("surfaces log and list_changed notifications as events, and sets the log level and pings", async () => {
    const { connection } = await connected();
    const logs: unknown[] = [];
    const changes: unknown[] = [];
    connection.on("log", (l) => logs.push(l));
    connection.on("list-changed", (c) => changes.push(c));
    await connection.setLoggingLevel("debug");
    await connection.callTool("shout", {});
    await new Promise((r) => setTimeout(r, 5));
    expect(logs).toEqual([{ level: "warning", logger: "test", data: "loud" }]);
    expect(changes).toEqual([{ list: "tools" }]);
    await expect(connection.ping()).resolves.toBeUndefined();
  });

  it("emits close when closed, and refuses calls afterwards", async () => {
    const { connection } = await connected();
    let closed = 0;
    connection.on("close", () => closed++);
    await connection.close();
    expect(closed).toBe(1);
    expect(await connection.callTool("echo", { message: "late" })).toEqual({ kind: "connection-closed", message: "the connection is closed" });
  });
});
