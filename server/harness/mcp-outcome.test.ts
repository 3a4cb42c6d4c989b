import { describe, expect, it } from "vitest";
import { manualClock } from "../../src/core/env/index.ts";
import { WireLog } from "../../src/core/wire/index.ts";
import { ownEntries } from "./mcp-outcome.ts";

const enc = new TextEncoder();

describe("an MCP step's own frames", () => {
  it("leave out a late response to a request of the step before, and keep the step's own and the server's messages", () => {
    const log = new WireLog(manualClock(0, 0), 100);
    const rec = (direction: "out" | "in", body: unknown) => log.record({ channel: "mcp", direction, target: "stdio", bytes: enc.encode(JSON.stringify(body)) });
    rec("out", { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo" } });
    rec("in", { jsonrpc: "2.0", id: 6, result: { content: [] } });
    rec("in", { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x" } });
    rec("in", { jsonrpc: "2.0", id: "s1", method: "sampling/createMessage", params: {} });
    rec("in", { jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "ok" }] } });
    rec("in", "not json-rpc");
    const kept = ownEntries(log.entries()).map((e) => new TextDecoder().decode(e.bytes));
    expect(kept).toHaveLength(5);
    expect(kept.some((t) => t.includes('"id":6'))).toBe(false);
    expect(kept.filter((t) => t.includes('"id":7'))).toHaveLength(2);
  });
});
