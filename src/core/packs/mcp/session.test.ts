import { describe, expect, it } from "vitest";
import type { Candidate, CheckTools, FamilySession, Issue, SchemaDraft } from "../../validation/types.ts";
import { mcpFamily } from "./index.ts";
import { packFor } from "./packs.ts";
import type { McpVersion } from "./versions.ts";

function candidate(version: McpVersion, kindId: string): Candidate {
  const pack = packFor(version);
  const kind = pack.kinds.find((k) => k.id === kindId);
  if (!kind) throw new Error(`${pack.id} has no kind ${kindId}`);
  return { pack, kind, score: 1, evidence: [] };
}

function ranked(session: FamilySession, value: unknown): Candidate[] {
  return [...session.recognise(value, {}).candidates].sort((a, b) => b.score - a.score);
}

function top(session: FamilySession, value: unknown): Candidate {
  const best = ranked(session, value)[0];
  if (!best) throw new Error("no candidates");
  return best;
}

/** A CheckTools that records what it was asked and answers with one issue when told to. */
function recordingTools(fail = false): CheckTools & { calls: { schema: unknown; value: unknown; pointer: string; draft: SchemaDraft }[] } {
  const calls: { schema: unknown; value: unknown; pointer: string; draft: SchemaDraft }[] = [];
  return {
    calls,
    validateWithSchema(schema, value, pointer, draft): Issue[] {
      calls.push({ schema, value, pointer, draft });
      return fail ? [{ pointer, message: "tool schema says no", severity: "error", source: "tool-schema" }] : [];
    },
  };
}

const call = (id: number, method: string, params?: unknown) => ({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
const answer = (id: number | string, result: unknown) => ({ jsonrpc: "2.0", id, result });
const pin = (session: FamilySession, version: McpVersion) =>
  session.observe(answer("init", { protocolVersion: version, capabilities: {}, serverInfo: { name: "s", version: "1" } }), candidate(version, "initialize:result"), true);

describe("MCP session: recognising by method", () => {
  it("offers every version of a known request, newest first, when no version is pinned", () => {
    const list = ranked(mcpFamily.createSession(), call(1, "tools/call", { name: "x" }));
    expect(list.map((c) => c.pack.version)).toEqual(["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]);
    expect(list.every((c) => c.kind.id === "tools/call:request")).toBe(true);
    expect(list[0]?.score).toBe(0.95);
    expect(list[4]?.score).toBeGreaterThan(0.9);
    expect(list[0]?.evidence).toContain('method is "tools/call"');
  });

  it("puts the version agreed by initialize on top, the others at least 0.3 lower", () => {
    const session = mcpFamily.createSession();
    pin(session, "2025-06-18");
    const list = ranked(session, call(1, "tools/list"));
    expect(list[0]?.pack.version).toBe("2025-06-18");
    expect(list[0]?.evidence.join(" ")).toContain("agreed by initialize");
    for (const other of list.slice(1)) expect(other.score).toBeLessThanOrEqual((list[0]?.score ?? 0) - 0.3);
  });

  it("lets a 2026-07-28 request's own _meta name its version", () => {
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
    const best = top(mcpFamily.createSession(), call(4, "tools/call", { _meta: meta, name: "x" }));
    expect(best.pack.version).toBe("2026-07-28");
    expect(best.evidence.join(" ")).toContain("params._meta");
  });

  it("pins the version an initialize request proposes for that request", () => {
    const best = top(mcpFamily.createSession(), call(0, "initialize", { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "c", version: "1" } }));
    expect(best.pack.version).toBe("2025-03-26");
  });

  it("tells MCP tasks/get (taskId) from A2A's (id)", () => {
    const mcp = ranked(mcpFamily.createSession(), call(1, "tasks/get", { taskId: "t1" }));
    expect(mcp.map((c) => c.pack.version)).toEqual(["2025-11-25"]);
    expect(mcp[0]?.score).toBe(0.95);
    const a2a = top(mcpFamily.createSession(), call(1, "tasks/get", { id: "t1", historyLength: 2 }));
    expect(a2a.score).toBeLessThan(0.4);
  });

  it("knows notifications, and a request without an id is still a request, scored lower", () => {
    expect(top(mcpFamily.createSession(), { jsonrpc: "2.0", method: "notifications/progress", params: {} }).kind.id).toBe("notifications/progress:notification");
    const noId = top(mcpFamily.createSession(), { jsonrpc: "2.0", method: "tools/list" });
    expect(noId.kind.id).toBe("tools/list:request");
    expect(noId.score).toBeLessThan(0.9);
  });

  it("offers a weak generic kind for a method MCP does not define", () => {
    const best = top(mcpFamily.createSession(), call(1, "message/send", {}));
    expect(best.kind.id).toBe("request");
    expect(best.score).toBeLessThan(0.3);
  });

  it("reads a method without jsonrpc and id as a 2026-07-28 embedded input request", () => {
    const best = top(mcpFamily.createSession(), { method: "elicitation/create", params: { message: "m", requestedSchema: {} } });
    expect(best.kind.id).toBe("ElicitRequest");
    expect(best.pack.version).toBe("2026-07-28");
  });
});

describe("MCP session: recognising responses", () => {
  it("names a response by the request it answers", () => {
    const session = mcpFamily.createSession();
    session.observe(call(5, "tools/list"), candidate("2025-06-18", "tools/list:request"), true);
    const best = top(session, answer(5, { surprising: true }));
    expect(best.kind.id).toBe("tools/list:result");
    expect(best.score).toBe(0.97);
  });

  it("guesses from the result's shape when the request was not seen", () => {
    const session = mcpFamily.createSession();
    expect(top(session, answer(9, { content: [] })).kind.id).toBe("tools/call:result");
    expect(top(session, answer(9, { tools: [] })).kind.id).toBe("tools/list:result");
    expect(top(session, answer(9, {})).kind.id).toBe("ping:result");
    const init = top(session, answer(9, { protocolVersion: "2025-03-26", capabilities: {}, serverInfo: { name: "s", version: "1" } }));
    expect(init.kind.id).toBe("initialize:result");
    expect(init.pack.version).toBe("2025-03-26");
  });

  it("takes a resultType as a sign of 2026-07-28", () => {
    expect(top(mcpFamily.createSession(), answer(1, { resultType: "complete", content: [] })).pack.version).toBe("2026-07-28");
  });

  it("prefers an error code's own definition, and scores errors to known requests highest", () => {
    const session = mcpFamily.createSession();
    session.observe(call(3, "tools/call", { name: "x" }), candidate("2025-11-25", "tools/call:request"), true);
    const best = top(session, { jsonrpc: "2.0", id: 3, error: { code: -32042, message: "auth", data: { elicitations: [] } } });
    expect(best.kind.id).toBe("error:url-elicitation-required");
    expect(best.pack.version).toBe("2025-11-25");
    const plain = top(mcpFamily.createSession(), { jsonrpc: "2.0", id: 7, error: { code: -32601, message: "nope" } });
    expect(plain.kind.id).toBe("error");
    expect(plain.kind.role).toBe("error");
  });
});

describe("MCP session: values on their own", () => {
  it("recognises bare results and objects at payload scores", () => {
    const session = mcpFamily.createSession();
    const tool = top(session, { name: "t", inputSchema: { type: "object" } });
    expect(tool.kind).toMatchObject({ id: "Tool", role: "payload" });
    expect(tool.score).toBeLessThan(0.8);
    expect(top(session, { content: [{ type: "text", text: "x" }], isError: true }).kind.id).toBe("CallToolResult");
    expect(top(session, { type: "text", text: "x" }).kind.id).toBe("TextContent");
  });

  it("explains why nothing matched", () => {
    const session = mcpFamily.createSession();
    expect(session.recognise([1, 2], {})).toMatchObject({ candidates: [], reason: expect.stringContaining("objects") });
    expect(session.recognise({ hello: "world" }, {}).candidates).toEqual([]);
    expect(session.recognise({ hello: "world" }, {}).reason).toBe("not a JSON-RPC message, and no MCP definition's shape recognised");
  });
});

describe("MCP session: checks and notes", () => {
  const weather = { name: "weather", inputSchema: { type: "object", required: ["city"] }, outputSchema: { type: "object", required: ["temp"] } };

  function sessionWithTools(version: McpVersion): FamilySession {
    const session = mcpFamily.createSession();
    session.observe(answer(1, { tools: [weather] }), candidate(version, "tools/list:result"), true);
    return session;
  }

  it("checks tools/call arguments against the listed inputSchema, with the version's draft", () => {
    const session = sessionWithTools("2025-11-25");
    const tools = recordingTools(true);
    const message = call(2, "tools/call", { name: "weather", arguments: { town: "Oslo" } });
    const issues = session.check(message, candidate("2025-11-25", "tools/call:request"), {}, tools);
    expect(tools.calls).toEqual([{ schema: weather.inputSchema, value: { town: "Oslo" }, pointer: "/params/arguments", draft: "2020-12" }]);
    expect(issues.map((issue) => issue.source)).toContain("tool-schema");
    const old = sessionWithTools("2025-06-18");
    const oldTools = recordingTools();
    old.check(message, candidate("2025-06-18", "tools/call:request"), {}, oldTools);
    expect(oldTools.calls[0]?.draft).toBe("draft-07");
  });

  it("leaves calls to unknown tools alone", () => {
    const tools = recordingTools();
    mcpFamily.createSession().check(call(2, "tools/call", { name: "weather" }), candidate("2025-06-18", "tools/call:request"), {}, tools);
    expect(tools.calls).toEqual([]);
  });

  it("checks structuredContent against outputSchema and requires it when one is declared", () => {
    const session = sessionWithTools("2025-06-18");
    session.observe(call(2, "tools/call", { name: "weather" }), candidate("2025-06-18", "tools/call:request"), true);
    const chosen = candidate("2025-06-18", "tools/call:result");
    const tools = recordingTools();
    session.check(answer(2, { content: [], structuredContent: { temp: 3 } }), chosen, {}, tools);
    expect(tools.calls[0]).toMatchObject({ pointer: "/result/structuredContent", value: { temp: 3 } });
    const missing = session.check(answer(2, { content: [] }), chosen, {}, recordingTools());
    expect(missing.map((issue) => issue.rule)).toContain("mcp.structured-content");
    const failed = session.check(answer(2, { content: [], isError: true }), chosen, {}, recordingTools());
    expect(failed.map((issue) => issue.rule)).not.toContain("mcp.structured-content");
  });

  it("applies the JSON-RPC rules and flags a notification that carries an id", () => {
    const session = mcpFamily.createSession();
    const issues = session.check({ jsonrpc: "2.0", id: 1, method: "notifications/initialized" }, candidate("2025-06-18", "notifications/initialized:notification"), {}, recordingTools());
    expect(issues.map((issue) => issue.rule)).toContain("mcp.notification-id");
    const fraction = session.check(call(1.5, "ping"), candidate("2025-06-18", "ping:request"), {}, recordingTools());
    expect(fraction.map((issue) => issue.rule)).toContain("jsonrpc.id");
    expect(session.check({ type: "text", text: 1 }, candidate("2025-06-18", "TextContent"), {}, recordingTools())).toEqual([]);
  });

  it("notes that isError is a tool failure, not a protocol failure", () => {
    const session = mcpFamily.createSession();
    const notes = session.notes?.(answer(2, { content: [], isError: true }), candidate("2025-06-18", "tools/call:result")) ?? [];
    expect(notes.join(" ")).toContain("isError");
    expect(session.notes?.(answer(2, { content: [] }), candidate("2025-06-18", "tools/call:result"))).toEqual([]);
    expect(session.notes?.({ content: [], isError: true }, candidate("2025-06-18", "CallToolResult"))?.length).toBe(1);
  });
});
